// SystemMallocRestart: a restart is due only where malloc is not the system's and this
// process is not the restart already; a site's own preload is kept after glibc's libraries.
#include "harness/util/system_allocator.h"

#include <gtest/gtest.h>

namespace gpuconform {
namespace {

TEST(SystemMallocRestart, PreloadsGlibcWhereMallocIsJemallocs) {
  EXPECT_EQ(SystemMallocRestart(false, nullptr, nullptr), "libc.so.6 libstdc++.so.6");
  EXPECT_EQ(SystemMallocRestart(false, nullptr, ""), "libc.so.6 libstdc++.so.6");
}

TEST(SystemMallocRestart, KeepsTheSitesPreloadAfterGlibcs) {
  EXPECT_EQ(SystemMallocRestart(false, nullptr, "/opt/site/libhook.so"), "libc.so.6 libstdc++.so.6 /opt/site/libhook.so");
}

TEST(SystemMallocRestart, NeverTwiceAndNotWhereMallocIsTheSystemsAlready) {
  EXPECT_EQ(SystemMallocRestart(false, "1", nullptr), std::nullopt);
  EXPECT_EQ(SystemMallocRestart(true, nullptr, nullptr), std::nullopt);
}

TEST(MallocLibrary, NamesTheSharedObjectMallocComesFrom) {
  // The unit tests keep the system's malloc (CMakeLists.txt), or a sanitizer's, which is in
  // the test binary itself; either way the name is not empty.
  EXPECT_FALSE(MallocLibrary().empty());
}

}  // namespace
}  // namespace gpuconform
