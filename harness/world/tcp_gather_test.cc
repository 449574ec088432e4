// The gather's two sides over loopback: rank 0's listener and senders in threads.
#include "harness/world/tcp_gather.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

#include "harness/util/tcp_probe.h"

namespace gpuconform {
namespace {

using std::chrono::milliseconds;

constexpr std::uint64_t kNonce = 0x1234567890abcdefULL;

GatherRendezvous Loopback(const GatherListener& listener) { return {"127.0.0.1", listener.port(), kNonce}; }

TEST(TcpGather, RankZeroReceivesEveryPartByRank) {
  auto listener = GatherListener::Open();
  ASSERT_TRUE(listener) << listener.error();
  std::vector<std::thread> senders;
  std::vector<std::string> errors(4);
  for (int rank = 1; rank < 4; ++rank) {
    senders.emplace_back([&, rank] {
      // Rank 2's part is large: it arrives in many reads.
      const std::string part = rank == 2 ? std::string(5 << 20, 'b') : "part of rank " + std::to_string(rank);
      auto sent = SendPartToRoot(Loopback(*listener), rank, part, milliseconds(10000));
      if (!sent) errors[rank] = sent.error();
    });
  }
  auto parts = listener->Receive(4, kNonce, "mine", milliseconds(10000), {});
  for (auto& sender : senders) sender.join();
  ASSERT_TRUE(parts) << parts.error();
  ASSERT_EQ(parts->size(), 4u);
  EXPECT_EQ((*parts)[0], "mine");
  EXPECT_EQ((*parts)[1], "part of rank 1");
  EXPECT_EQ((*parts)[2], std::string(5 << 20, 'b'));
  EXPECT_EQ((*parts)[3], "part of rank 3");
  for (const auto& error : errors) EXPECT_EQ(error, "");
}

TEST(TcpGather, AnEmptyPartIsAPart) {
  auto listener = GatherListener::Open();
  ASSERT_TRUE(listener) << listener.error();
  std::thread sender([&] { (void)SendPartToRoot(Loopback(*listener), 1, "", milliseconds(5000)); });
  auto parts = listener->Receive(2, kNonce, "", milliseconds(5000), {});
  sender.join();
  ASSERT_TRUE(parts) << parts.error();
  EXPECT_EQ(parts->size(), 2u);
}

TEST(TcpGather, AMissingRankIsNamedWithItsHost) {
  auto listener = GatherListener::Open();
  ASSERT_TRUE(listener) << listener.error();
  std::thread sender([&] { (void)SendPartToRoot(Loopback(*listener), 1, "one", milliseconds(5000)); });
  auto parts = listener->Receive(3, kNonce, "mine", milliseconds(1500), {"node1", "node2", "node3"});
  sender.join();
  ASSERT_FALSE(parts);
  EXPECT_NE(parts.error().find("the parts of 2 of 3 ranks"), std::string::npos) << parts.error();
  EXPECT_NE(parts.error().find("none from rank 2 (node3)"), std::string::npos) << parts.error();
  EXPECT_EQ(parts.error().find("rank 1 (node2)"), std::string::npos) << parts.error();
}

TEST(TcpGather, AStrayConnectionIsDroppedAndTheGatherGoesOn) {
  auto listener = GatherListener::Open();
  ASSERT_TRUE(listener) << listener.error();
  std::thread stray([&] {
    // Another gather's nonce, then a client that says nothing and hangs up.
    (void)SendPartToRoot({"127.0.0.1", listener->port(), kNonce + 1}, 1, "not ours", milliseconds(1000));
    std::string error;
    const int fd = TcpOpenConnection("127.0.0.1", listener->port(), milliseconds(1000), error);
    if (fd >= 0) close(fd);
  });
  std::thread sender([&] {
    std::this_thread::sleep_for(milliseconds(200));
    (void)SendPartToRoot(Loopback(*listener), 1, "ours", milliseconds(5000));
  });
  auto parts = listener->Receive(2, kNonce, "mine", milliseconds(5000), {});
  stray.join();
  sender.join();
  ASSERT_TRUE(parts) << parts.error();
  EXPECT_EQ((*parts)[1], "ours");
}

TEST(TcpGather, ASenderThatCannotReachRankZeroSaysWhereItTried) {
  int port = 0;
  {
    auto listener = GatherListener::Open();  // a port that was free a moment ago, now closed
    ASSERT_TRUE(listener) << listener.error();
    port = listener->port();
  }
  auto sent = SendPartToRoot({"127.0.0.1", port, kNonce}, 1, "part", milliseconds(800));
  ASSERT_FALSE(sent);
  EXPECT_NE(sent.error().find("rank 0 (127.0.0.1 port " + std::to_string(port) + ")"), std::string::npos)
      << sent.error();
  EXPECT_NE(sent.error().find("Connection refused"), std::string::npos) << sent.error();
}

TEST(TcpGather, TheRendezvousTravelsAsTextAndGarbageIsRefused) {
  const GatherRendezvous sent{"node1", 41234, 99};
  auto back = GatherRendezvous::Decode(sent.Encode());
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->host, "node1");
  EXPECT_EQ(back->port, 41234);
  EXPECT_EQ(back->nonce, 99u);
  auto refused = GatherRendezvous::Decode("rank 0 could not open a TCP port for the gather: Too many open files");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("Too many open files"), std::string::npos);
  EXPECT_FALSE(GatherRendezvous::Decode(""));
  EXPECT_FALSE(GatherRendezvous::Decode("node1 70000 1"));
}

}  // namespace
}  // namespace gpuconform
