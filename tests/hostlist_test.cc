// CompressHostlist: Slurm hostlist notation for the nodes of a finding, at fleet size.
#include "harness/hostlist.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace gpuconform {
namespace {

TEST(CompressHostlist, KeepsNamesWithoutANumberOnceInFirstSeenOrder) {
  EXPECT_EQ(CompressHostlist({"login", "gpu01", "head", "login", "gpu02", "head"}), "login,gpu[01-02],head");
}

TEST(CompressHostlist, TenThousandNamesWithoutANumberAreEachKeptOnce) {
  std::vector<std::string> names;
  for (int i = 0; i < 10000; ++i)
    names.push_back("node-" + std::string(1, static_cast<char>('a' + i % 26)) +
                    std::string(1, static_cast<char>('a' + i / 26 % 26)) +
                    std::string(1, static_cast<char>('a' + i / 676)));
  const std::vector<std::string> again = names;
  names.insert(names.end(), again.begin(), again.end());
  const std::string list = CompressHostlist(names);
  EXPECT_EQ(std::count(list.begin(), list.end(), ','), 9999);
  EXPECT_TRUE(list.starts_with("node-aaa,node-baa,"));
}

TEST(CompressHostlist, ZeroPaddedFleetIsOneRange) {
  std::vector<std::string> names;
  for (int i = 10000; i >= 1; --i) {
    std::string number = std::to_string(i);
    names.push_back("gpu" + std::string(5 - number.size(), '0') + number);
  }
  EXPECT_EQ(CompressHostlist(names), "gpu[00001-10000]");
}

}  // namespace
}  // namespace gpuconform
