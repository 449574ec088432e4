#include "suites/munge/munge_checks.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "harness/core/suite_registry.h"
#include "harness/util/text_util.h"
#include "harness/world/world.h"
#include "probes/munge/munge_facts.h"
#include "probes/munge/munge_parse.h"
#include "probes/munge/munge_probes.h"
#include "tests/support/registered_checks.h"

namespace gpuconform::munge {
namespace {

namespace fs = std::filesystem;
using test_support::ExpectFirstFinding;
using test_support::ExpectOnlyFinding;

const std::string kNonce(64, 'a');
const std::string kDigestA = "1111111122222222333333334444444455555555666666667777777788888888";
const std::string kDigestB = "99999999aaaaaaaabbbbbbbbccccccccddddddddeeeeeeeeffffffff00000000";

Profile LocalProfile(bool present = true, int max_clock_skew_s = 300) {
  Profile p;
  p.name = "local";
  p.Set(MungeExpectation{present, max_clock_skew_s, "munged default credential TTL (300 s)"});
  return p;
}

Profile NoMungeProfile() { return LocalProfile(/*present=*/false); }

Profile NoMungeSectionProfile() {
  Profile p = LocalProfile();
  p.Unset<MungeExpectation>();
  return p;
}

std::string FirstMessage(const CheckResult& r) { return r.findings.empty() ? "" : r.findings.front().message; }

bool AnyMessageContains(const CheckResult& r, const std::string& needle) {
  return std::any_of(r.findings.begin(), r.findings.end(),
                     [&](const Finding& f) { return f.message.find(needle) != std::string::npos; });
}

const Measurement* FindMeasurement(const CheckResult& r, const std::string& name) {
  for (const auto& m : r.measurements) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

// ---- decode matrices ----

DecodeAttempt Ok(const std::string& from) { return {from, "Success", 0, "STATUS: Success (0)"}; }
DecodeAttempt Invalid(const std::string& from) { return {from, "Invalid credential", 14, "unmunge: Error: Invalid credential"}; }
DecodeAttempt Expired(const std::string& from) {
  return {from, "Expired credential", 15, "STATUS: Expired credential (15)"};
}
DecodeAttempt NoCredential(const std::string& from) {
  return {from, "no credential", -1, from + "'s munge -n failed (see Munge.DaemonReachable/" + from + ")"};
}
DecodeAttempt SocketDown(const std::string& from) {
  return {from, "Socket communication error", 6,
          "unmunge: Error: Failed to access \"/run/munge/munge.socket.2\": No such file or directory (Did you start "
          "munged?)"};
}

DecodeReport Report(std::vector<DecodeAttempt> attempts) {
  DecodeReport r;
  r.socket_path = "/run/munge/munge.socket.2";
  r.encode_ok = true;
  r.attempts = std::move(attempts);
  return r;
}

DecodeReport EncodeFailed(const std::string& why, std::vector<DecodeAttempt> attempts) {
  DecodeReport r = Report(std::move(attempts));
  r.encode_ok = false;
  r.encode_failure = why;
  return r;
}

using Reports = std::map<std::string, Result<DecodeReport>>;

// Per-node readings as the suite's glue files them for a cluster check.
template <typename T>
NodeFacts<T> Facts(const std::map<std::string, Result<T>>& readings) {
  NodeFacts<T> facts;
  for (const auto& [node, reading] : readings) facts.Add(node, reading);
  return facts;
}

// Every node decodes every node; `key_of` says which key each node holds.
Reports MatrixWithKeys(const std::map<std::string, int>& key_of) {
  Reports reports;
  for (const auto& [decoder, decoder_key] : key_of) {
    std::vector<DecodeAttempt> attempts;
    for (const auto& [encoder, encoder_key] : key_of) {
      attempts.push_back(encoder_key == decoder_key ? Ok(encoder) : Invalid(encoder));
    }
    reports.emplace(decoder, Report(attempts));
  }
  return reports;
}

// ---- parsers ----

const char kDigestText[] =
    "nonce aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
    "hmac-sha256 1111111122222222333333334444444455555555666666667777777788888888\n";
const char kStatText[] = "path /etc/munge/munge.key\nowner munge\ngroup munge\nmode 0400\nsize_bytes 1024\n";
const char kDecodeText[] =
    "socket /run/munge/munge.socket.2\n"
    "encode: ok\n"
    "nodes 3\n"
    "from node1: status=Success exit=0 STATUS: Success (0)\n"
    "from node2: status=Success exit=0 STATUS: Success (0)\n"
    "from node3: status=Invalid credential exit=14 unmunge: Error: Invalid credential\n";

TEST(MungeParse, KeyDigestReadsNonceAndHmac) {
  const auto d = test_support::Parsed(ParseKeyDigest(kDigestText, "n1/munge-key.digest"));
  EXPECT_EQ(d.nonce_hex, kNonce);
  EXPECT_EQ(d.hmac_hex, kDigestA);
}

TEST(MungeParse, KeyDigestRejectsWrongLengthUppercaseAndExtraLines) {
  test_support::ExpectErrorStartingWith(ParseKeyDigest("nonce abc\nhmac-sha256 " + kDigestA + "\n", "f"),
                                        "f:1: expected 'nonce <64 lowercase hex digits>'");
  std::string upper = kDigestText;
  std::transform(upper.begin() + 6, upper.begin() + 70, upper.begin() + 6, ::toupper);
  EXPECT_FALSE(ParseKeyDigest(upper, "f"));
  test_support::ExpectErrorContaining(ParseKeyDigest(std::string(kDigestText) + "key 0123\n", "f"),
                                      "f:3: unexpected line");
  EXPECT_FALSE(ParseKeyDigest("", "f"));
}

TEST(MungeParse, KeyDigestTruncatedAnywhereIsAnError) {
  const std::string full = kDigestText;
  for (std::size_t cut = 0; cut + 1 < full.size(); ++cut) {
    EXPECT_FALSE(ParseKeyDigest(full.substr(0, cut), "f")) << "cut at " << cut;
  }
  EXPECT_TRUE(ParseKeyDigest(full.substr(0, full.size() - 1), "f")) << "only the final newline missing";
}

TEST(MungeParse, KeyStatReadsEveryField) {
  const auto s = test_support::Parsed(ParseKeyStat(kStatText, "f"));
  EXPECT_EQ(s.path, "/etc/munge/munge.key");
  EXPECT_EQ(s.owner, "munge");
  EXPECT_EQ(s.group, "munge");
  EXPECT_EQ(s.mode, 0400u);
  EXPECT_EQ(s.size_bytes, 1024);
}

TEST(MungeParse, KeyStatRejectsMissingDuplicateAndBadValues) {
  auto missing = ParseKeyStat("path /k\nowner munge\ngroup munge\nmode 0400\n", "snap/nodes/n1/munge-key-stat.txt");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("snap/nodes/n1/munge-key-stat.txt:5: truncated stat file: no 'size_bytes"),
            std::string::npos)
      << missing.error();
  EXPECT_FALSE(ParseKeyStat(std::string(kStatText) + "mode 0600\n", "f"));
  EXPECT_FALSE(ParseKeyStat("path /k\nowner munge\ngroup munge\nmode 0x9\nsize_bytes 1\n", "f"));
  EXPECT_FALSE(ParseKeyStat("path /k\nowner munge\ngroup munge\nmode 0400\nsize_bytes -4\n", "f"));
  EXPECT_FALSE(ParseKeyStat("path /k\nowner munge\ngroup munge\nmode 0400\nsize_bytes 4\ncolour blue\n", "f"));
}

TEST(MungeParse, KeyStatTruncatedBeforeTheLastFieldIsAnError) {
  const std::string full = kStatText;
  const std::size_t last_line = full.find("size_bytes ");
  for (std::size_t cut = 0; cut <= last_line + 10; ++cut) {
    EXPECT_FALSE(ParseKeyStat(full.substr(0, cut), "f")) << "cut at " << cut;
  }
}

TEST(MungeParse, DecodeReportReadsTheMatrixRow) {
  const auto r = test_support::Parsed(ParseDecodeReport(kDecodeText, "f"));
  EXPECT_EQ(r.socket_path, "/run/munge/munge.socket.2");
  EXPECT_TRUE(r.encode_ok);
  ASSERT_EQ(r.attempts.size(), 3u);
  EXPECT_EQ(r.attempts[2].from_node, "node3");
  EXPECT_EQ(r.attempts[2].status, "Invalid credential");
  EXPECT_EQ(r.attempts[2].exit_code, 14);
  EXPECT_EQ(r.attempts[2].message, "unmunge: Error: Invalid credential");
}

TEST(MungeParse, DecodeReportRoundTripsThroughFormat) {
  const std::vector<DecodeAttempt> attempts = {Ok("node1"), NoCredential("node2"), SocketDown("node3")};
  std::string text = "socket /s\nencode: failed munge: Error: Failed to access \"/s\": No such file or directory\nnodes 3\n";
  for (const auto& a : attempts) text += FormatDecodeAttempt(a) + "\n";
  const auto r = test_support::Parsed(ParseDecodeReport(text, "f"));
  EXPECT_FALSE(r.encode_ok);
  EXPECT_EQ(r.encode_failure, "munge: Error: Failed to access \"/s\": No such file or directory");
  for (std::size_t i = 0; i < attempts.size(); ++i) {
    EXPECT_EQ(r.attempts[i].from_node, attempts[i].from_node);
    EXPECT_EQ(r.attempts[i].status, attempts[i].status);
    EXPECT_EQ(r.attempts[i].exit_code, attempts[i].exit_code);
    EXPECT_EQ(r.attempts[i].message, attempts[i].message);
  }
}

TEST(MungeParse, DecodeReportTruncatedOrForeignIsAnError) {
  const std::string full = kDecodeText;
  for (std::size_t cut = 0; cut + 1 < full.size(); ++cut) {
    auto r = ParseDecodeReport(full.substr(0, cut), "f");
    // A cut after the last exit code's first digit still leaves three complete-looking
    // lines; any earlier cut loses a line that 'nodes 3' promised, or its exit code.
    if (cut < full.rfind("from node3: status=Invalid credential exit=") + 44) {
      EXPECT_FALSE(r) << "cut at " << cut;
    }
  }
  auto truncated = ParseDecodeReport("socket /s\nencode: ok\nnodes 3\nfrom node1: status=Success exit=0\n", "f");
  ASSERT_FALSE(truncated);
  EXPECT_NE(truncated.error().find("f:3: truncated: 'nodes 3' but 1 'from' lines follow"), std::string::npos)
      << truncated.error();
  EXPECT_FALSE(ParseDecodeReport("STATUS: Success (0)\n", "f"));
  EXPECT_FALSE(ParseDecodeReport("encode: ok\nnodes 1\nfrom node1: status=Success exit=zero\n", "f"));
  EXPECT_FALSE(ParseDecodeReport("encode: ok\nnodes 1\nfrom : status=Success exit=0\n", "f"));
  EXPECT_FALSE(ParseDecodeReport("encode: maybe\nnodes 0\n", "f"));
}

TEST(MungeParse, ClockReading) {
  const auto c = test_support::Parsed(ParseClockReading("epoch_ns 1796221101123456789\n", "f"));
  EXPECT_EQ(c, 1796221101123456789LL);
  EXPECT_FALSE(ParseClockReading("", "f"));
  EXPECT_FALSE(ParseClockReading("epoch_ns\n", "f"));
  EXPECT_FALSE(ParseClockReading("epoch_ns 12x\n", "f"));
  EXPECT_FALSE(ParseClockReading("epoch_ns 99999999999999999999999\n", "f"));
  EXPECT_FALSE(ParseClockReading("epoch_ns 1\nepoch_ns 2\n", "f"));
}

// Outputs of munge 0.5.15 on this project's machines (see local-cluster-facts §7).
TEST(MungeParse, InterpretUnmungeReadsStatusLineOrStderr) {
  const char success[] = "STATUS:          Success (0)\nENCODE_HOST:     node1 (10.10.0.1)\nTTL:             300\n";
  auto ok = InterpretUnmunge(0, success, "");
  EXPECT_EQ(ok.status, "Success");
  EXPECT_EQ(ok.message, "STATUS: Success (0)");
  auto invalid = InterpretUnmunge(14, "", "unmunge: Error: Invalid credential\n");
  EXPECT_EQ(invalid.status, "Invalid credential");
  EXPECT_EQ(invalid.message, "unmunge: Error: Invalid credential");
  auto replayed = InterpretUnmunge(17, "STATUS:          Replayed credential (17)\n", "");
  EXPECT_EQ(replayed.status, "Replayed credential");
  auto socket = InterpretUnmunge(6, "", "unmunge: Error: Failed to access \"/x\": No such file or directory\n");
  EXPECT_EQ(socket.status, "Socket communication error");
  auto unknown = InterpretUnmunge(99, "", "something odd\n");
  EXPECT_EQ(unknown.status, "exit 99");
  EXPECT_EQ(MungeErrorName(8).value_or(""), "Invalid credential format");
  EXPECT_FALSE(MungeErrorName(19));
}

TEST(MungeParse, FindMungeFailureClassifiesToolAndLogLines) {
  auto socket = FindMungeFailure(
      "munge: Error: Failed to access \"/tmp/x/nosock\": No such file or directory (Did you start munged?)\n");
  ASSERT_TRUE(socket);
  EXPECT_EQ(socket->kind, MungeFailure::kSocketUnreachable);
  EXPECT_EQ(socket->line_number, 1);
  auto armor = FindMungeFailure("hello\nunmunge: Error: Failed to match armor prefix\n");
  ASSERT_TRUE(armor);
  EXPECT_EQ(armor->kind, MungeFailure::kMalformedCredential);
  EXPECT_EQ(armor->line_number, 2);
  EXPECT_EQ(FindMungeFailure("STATUS: Expired credential (15)")->kind, MungeFailure::kExpiredCredential);
  EXPECT_EQ(FindMungeFailure("STATUS: Rewound credential (16)")->kind, MungeFailure::kRewoundCredential);
  EXPECT_FALSE(FindMungeFailure("STATUS:          Success (0)\n"));
  EXPECT_FALSE(FindMungeFailure(""));
}

TEST(MungeParse, AuthInfoSocketFromSlurmConf) {
  EXPECT_EQ(ParseAuthInfoSocket("AuthType=auth/munge\nAuthInfo=socket=/lc/run/munge/munge.socket.2\n").value_or(""),
            "/lc/run/munge/munge.socket.2");
  EXPECT_EQ(ParseAuthInfoSocket("authinfo = cred_expire=120,socket=/var/run/m.sock,ttl=60 # comment\n").value_or(""),
            "/var/run/m.sock");
  EXPECT_EQ(ParseAuthInfoSocket("AuthInfo=\"socket=/q\"\n").value_or(""), "/q");
  EXPECT_EQ(ParseAuthInfoSocket("AuthInfo=socket=/a\nAuthInfo=socket=/b\n").value_or(""), "/b");
  EXPECT_FALSE(ParseAuthInfoSocket("#AuthInfo=socket=/commented\nAuthInfo=cred_expire=120\n"));
  EXPECT_FALSE(ParseAuthInfoSocket("AuthAltTypes=auth/jwt\n"));
}

TEST(MungeParse, PathResolutionPrefersEnvThenSlurmConfThenDefaults) {
  const std::string conf = "AuthInfo=socket=/conf/munge.socket.2\n";
  auto env = ResolveMungePaths("/env/sock", "/env/key", "/etc/slurm/slurm.conf", conf);
  EXPECT_EQ(env.socket_path, "/env/sock");
  EXPECT_EQ(env.socket_source, "GPUCONFORM_MUNGE_SOCKET");
  EXPECT_EQ(env.key_path, "/env/key");
  auto from_conf = ResolveMungePaths(std::nullopt, std::nullopt, "/lc/slurm.conf", conf);
  EXPECT_EQ(from_conf.socket_path, "/conf/munge.socket.2");
  EXPECT_EQ(from_conf.socket_source, "AuthInfo=socket= in /lc/slurm.conf");
  EXPECT_EQ(from_conf.key_path, "/etc/munge/munge.key");
  auto empty_env = ResolveMungePaths(std::string(), std::string(), "/x", std::nullopt);
  EXPECT_EQ(empty_env.socket_path, "/run/munge/munge.socket.2");
  EXPECT_EQ(empty_env.socket_source, "munge's default");
  EXPECT_EQ(empty_env.key_path, "/etc/munge/munge.key");
  EXPECT_EQ(ResolveMungePaths(std::nullopt, std::nullopt, "/x", "ClusterName=lc\n").socket_path,
            "/run/munge/munge.socket.2");
  EXPECT_EQ(SlurmConfPath(std::nullopt), "/etc/slurm/slurm.conf");
  EXPECT_EQ(SlurmConfPath(std::string()), "/etc/slurm/slurm.conf");
  EXPECT_EQ(SlurmConfPath(std::string("/lc/etc/slurm/slurm.conf")), "/lc/etc/slurm/slurm.conf");
}

TEST(MungeParse, SurvivesArbitraryBytesAndMutations) {
  std::mt19937 random(20240611);
  const std::vector<std::string> seeds = {kDigestText, kStatText, kDecodeText, "epoch_ns 12345\n",
                                          "AuthInfo=socket=/a,ttl=5\n"};
  for (int i = 0; i < 3000; ++i) {
    std::string bytes;
    if (i % 2 == 0) {
      const int length = static_cast<int>(random() % 200);
      for (int j = 0; j < length; ++j) bytes += static_cast<char>(random() % 256);
    } else {
      bytes = seeds[random() % seeds.size()];
      for (int flips = 1 + random() % 4; flips > 0; --flips) bytes[random() % bytes.size()] = static_cast<char>(random() % 256);
      bytes.resize(random() % (bytes.size() + 1));
    }
    (void)ParseKeyDigest(bytes, "fuzz");
    (void)ParseKeyStat(bytes, "fuzz");
    auto report = ParseDecodeReport(bytes, "fuzz");
    if (report) (void)CheckDaemonReachable("n1", *report);
    (void)ParseClockReading(bytes, "fuzz");
    (void)ParseAuthInfoSocket(bytes);
    (void)FindMungeFailure(bytes);
    (void)InterpretUnmunge(static_cast<int>(random() % 40) - 2, bytes, bytes);
  }
  SUCCEED() << "no crash on 3000 random and mutated inputs";
}

// ---- CredentialsDecodeAcrossNodes ----

TEST(MungeCredentialsDecodeAcrossNodes, EveryPairDecodesConforms) {
  auto r = CheckCredentialsDecodeAcrossNodes(Facts(MatrixWithKeys({{"node1", 1}, {"node2", 1}, {"node3", 1}})));
  EXPECT_EQ(r.verdict, Verdict::kPass) << FirstMessage(r);
  ASSERT_NE(FindMeasurement(r, "decode_pairs_succeeded"), nullptr);
  EXPECT_EQ(FindMeasurement(r, "decode_pairs_succeeded")->value, "6");
}

TEST(MungeCredentialsDecodeAcrossNodes, NodeWithAnotherKeyIsNamedWithTheFix) {
  auto r = CheckCredentialsDecodeAcrossNodes(Facts(MatrixWithKeys({{"node1", 1}, {"node2", 1}, {"node3", 2}})));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_EQ(r.findings.size(), 1u) << FirstMessage(r);
  EXPECT_EQ(r.findings[0].entity, "node3");
  EXPECT_EQ(r.findings[0].code, "key-differs");
  EXPECT_EQ(r.findings[0].message,
            "node3: credentials from node1, node2 are rejected with 'Invalid credential' and node3's are rejected by "
            "them: node3 holds a different MUNGE key; copy /etc/munge/munge.key from a good node (0400 munge:munge) "
            "and restart munged");
  EXPECT_EQ(FindMeasurement(r, "decode_pairs_rejected")->value, "4");
}

TEST(MungeCredentialsDecodeAcrossNodes, TwoNodesWithTwoKeysHaveNoMajority) {
  auto r = CheckCredentialsDecodeAcrossNodes(Facts(MatrixWithKeys({{"node1", 1}, {"node2", 2}})));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].message.rfind("node1: rejects the credential from node2 with 'Invalid credential' (unmunge "
                                        "exit 14): node1 and node2 hold different MUNGE keys",
                                        0),
            0u)
      << r.findings[0].message;
  EXPECT_TRUE(AnyMessageContains(r, "cannot tell which key is right"));
}

TEST(MungeCredentialsDecodeAcrossNodes, ExpiredCredentialPointsAtTheClock) {
  Reports reports = MatrixWithKeys({{"node1", 1}, {"node2", 1}, {"node3", 1}});
  reports.erase("node2");
  reports.emplace("node2", Report({Ok("node1"), Ok("node2"), Expired("node3")}));
  auto r = CheckCredentialsDecodeAcrossNodes(Facts(reports));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].entity, "node2");
  EXPECT_EQ(r.findings[0].message,
            "node2: rejects the credential from node3 with 'Expired credential' (unmunge exit 15): node3's clock is "
            "behind node2's by more than the credential TTL; run chrony or NTP on every node");
}

TEST(MungeCredentialsDecodeAcrossNodes, NodeWhoseMungedIsDownLeavesPairsUntestedAnError) {
  Reports reports;
  reports.emplace("node1", Report({Ok("node1"), NoCredential("node2"), Ok("node3")}));
  reports.emplace("node2", EncodeFailed("munge: Error: Failed to access \"/run/munge/munge.socket.2\": No such file",
                                        {NoCredential("node2"), SocketDown("node1"), SocketDown("node3")}));
  reports.emplace("node3", Report({Ok("node1"), NoCredential("node2"), Ok("node3")}));
  auto r = CheckCredentialsDecodeAcrossNodes(Facts(reports));
  ASSERT_EQ(r.verdict, Verdict::kError);
  EXPECT_EQ(FirstMessage(r).rfind("4 of 6 node pairs could not be tested", 0), 0u) << FirstMessage(r);
  EXPECT_TRUE(AnyMessageContains(r, "node2: the credential from node1 was not tested: Socket communication error"));
}

// As recorded live on the local cluster: node3 with another key, node2's munged stopped.
TEST(MungeCredentialsDecodeAcrossNodes, FailureAlsoNamesTheNodeThatCouldNotBeTested) {
  Reports reports;
  reports.emplace("node1", Report({Ok("node1"), NoCredential("node2"), Invalid("node3")}));
  reports.emplace("node2", EncodeFailed("munge: Error: Failed to access \"/run/munge/munge.socket.2\": No such file",
                                        {SocketDown("node1"), NoCredential("node2"), SocketDown("node3")}));
  reports.emplace("node3", Report({Invalid("node1"), NoCredential("node2"), Ok("node3")}));
  auto r = CheckCredentialsDecodeAcrossNodes(Facts(reports));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_EQ(r.findings.size(), 3u);
  EXPECT_EQ(r.findings[0].entity, "node1");
  EXPECT_EQ(r.findings[1].entity, "node3");
  EXPECT_EQ(r.findings[2].code, "untested");
  EXPECT_EQ(r.findings[2].message,
            "node2: no credential to or from node2 could be tested, so node2 is not judged here; see "
            "Munge.DaemonReachable/node2");
}

TEST(MungeCredentialsDecodeAcrossNodes, MissingRowIsAnErrorNamingNodeAndFile) {
  Reports reports = MatrixWithKeys({{"node1", 1}, {"node2", 1}});
  reports.erase("node2");
  reports.emplace("node2", Error{"node2: no munge-decode.txt (the snapshot has no s/nodes/node2/munge-decode.txt)"});
  auto r = CheckCredentialsDecodeAcrossNodes(Facts(reports));
  ASSERT_EQ(r.verdict, Verdict::kError);
  EXPECT_EQ(FirstMessage(r), "node2: no munge-decode.txt (the snapshot has no s/nodes/node2/munge-decode.txt)");
}

TEST(MungeCredentialsDecodeAcrossNodes, HoleInTheMatrixIsNotAPass) {
  Reports reports;
  reports.emplace("node1", Report({Ok("node1"), Ok("node2")}));
  reports.emplace("node2", Report({Ok("node2")}));
  auto r = CheckCredentialsDecodeAcrossNodes(Facts(reports));
  ASSERT_EQ(r.verdict, Verdict::kError);
  EXPECT_TRUE(AnyMessageContains(r, "node2: the credential from node1 was not tested: not decoded"));
}

TEST(MungeCredentialsDecodeAcrossNodes, NotApplicableWithoutMungeAndSkippedOnOneNode) {
  EXPECT_EQ(NotApplicable(NoMungeProfile()), "profile local says this cluster has no MUNGE (munge.present: false)");
  EXPECT_NE(NotApplicable(NoMungeSectionProfile()).value_or("").find("has no munge section"), std::string::npos);
  EXPECT_EQ(NotApplicable(LocalProfile()), std::nullopt);
  auto single = CheckCredentialsDecodeAcrossNodes(Facts(MatrixWithKeys({{"node1", 1}})));
  EXPECT_EQ(single.verdict, Verdict::kSkip);
  EXPECT_NE(FirstMessage(single).find("only one node (node1)"), std::string::npos);
}

// ---- KeyIdenticalOnAllNodes ----

using Digests = std::map<std::string, Result<KeyDigest>>;

TEST(MungeKeyIdenticalOnAllNodes, SameDigestEverywhereConforms) {
  Digests d;
  for (const char* n : {"node1", "node2", "node3"}) d.emplace(n, KeyDigest{kNonce, kDigestA});
  auto r = CheckKeyIdenticalOnAllNodes(Facts(d));
  EXPECT_EQ(r.verdict, Verdict::kPass) << FirstMessage(r);
  EXPECT_EQ(FindMeasurement(r, "node1.key_digest_prefix")->value, "11111111");
}

TEST(MungeKeyIdenticalOnAllNodes, MinorityNodeIsNamedAndOnlyAShortPrefixShown) {
  Digests d;
  d.emplace("node1", KeyDigest{kNonce, kDigestA});
  d.emplace("node2", KeyDigest{kNonce, kDigestA});
  d.emplace("node3", KeyDigest{kNonce, kDigestB});
  auto r = CheckKeyIdenticalOnAllNodes(Facts(d));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].entity, "node3");
  EXPECT_EQ(r.findings[0].message,
            "node3: MUNGE key differs from node1, node2 (keyed digest 99999999 vs 11111111, same nonce): node3 holds a "
            "different MUNGE key; copy /etc/munge/munge.key from a good node (0400 munge:munge) and restart munged");
  for (const auto* text : {&r.findings[0].message}) {
    EXPECT_EQ(text->find(kDigestA.substr(0, 9)), std::string::npos);
    EXPECT_EQ(text->find(kDigestB.substr(0, 9)), std::string::npos);
  }
  for (const auto& m : r.measurements) EXPECT_LE(m.value.size(), 8u) << m.name;
}

TEST(MungeKeyIdenticalOnAllNodes, TieNamesEveryNode) {
  Digests d;
  d.emplace("node1", KeyDigest{kNonce, kDigestA});
  d.emplace("node2", KeyDigest{kNonce, kDigestB});
  auto r = CheckKeyIdenticalOnAllNodes(Facts(d));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_EQ(r.findings[0].message.rfind("node1: MUNGE key differs from node2", 0), 0u) << r.findings[0].message;
  EXPECT_TRUE(AnyMessageContains(r, "no majority"));
}

TEST(MungeKeyIdenticalOnAllNodes, DifferentNoncesCannotBeComparedAnError) {
  Digests d;
  d.emplace("node1", KeyDigest{kNonce, kDigestA});
  d.emplace("node2", KeyDigest{std::string(64, 'b'), kDigestA});
  auto r = CheckKeyIdenticalOnAllNodes(Facts(d));
  ASSERT_EQ(r.verdict, Verdict::kError);
  EXPECT_EQ(r.findings[0].code, "nonce-mismatch");
  EXPECT_NE(FirstMessage(r).find("node1 used nonce aaaaaaaa; node2 used nonce bbbbbbbb"), std::string::npos)
      << FirstMessage(r);
}

TEST(MungeKeyIdenticalOnAllNodes, UnreadableKeyIsAnErrorWithTheProbeReason) {
  Digests d;
  d.emplace("node1", KeyDigest{kNonce, kDigestA});
  d.emplace("node2", Error{"node2: cannot read the MUNGE key /etc/munge/munge.key (munge's default): permission denied"});
  auto r = CheckKeyIdenticalOnAllNodes(Facts(d));
  ASSERT_EQ(r.verdict, Verdict::kError);
  EXPECT_NE(FirstMessage(r).find("node2: cannot read the MUNGE key /etc/munge/munge.key"), std::string::npos);
}

TEST(MungeKeyIdenticalOnAllNodes, OneNodeIsSkipped) {
  Digests d;
  d.emplace("node1", KeyDigest{kNonce, kDigestA});
  auto r = CheckKeyIdenticalOnAllNodes(Facts(d));
  EXPECT_EQ(r.verdict, Verdict::kSkip);
  EXPECT_NE(FirstMessage(r).find("only one node (node1) in this run; comparing keys"), std::string::npos);
}

// ---- KeyFileProtected ----

KeyStat Stat(unsigned mode, const std::string& owner) { return {"/etc/munge/munge.key", owner, owner, mode, 1024}; }

TEST(MungeKeyFileProtected, OwnerOnlyModesConform) {
  EXPECT_EQ(CheckKeyFileProtected("node1", Stat(0400, "munge")).verdict, Verdict::kPass);
  auto r = CheckKeyFileProtected("node2", Stat(0600, "root"));
  EXPECT_EQ(r.verdict, Verdict::kPass);
  EXPECT_EQ(FindMeasurement(r, "node2.key_mode")->value, "0600");
}

TEST(MungeKeyFileProtected, GroupOrWorldAccessFailsWithObservedAndExpectedMode) {
  auto r = CheckKeyFileProtected("node2", Stat(0644, "munge"));
  ExpectOnlyFinding(r, "node2",
                    "node2: /etc/munge/munge.key has mode 0644 (group or others may read or write "
                    "it), expected 0600 or 0400");
  EXPECT_EQ(CheckKeyFileProtected("node1", Stat(0620, "munge")).verdict, Verdict::kFail);
}

TEST(MungeKeyFileProtected, ForeignOwnerFails) {
  auto r = CheckKeyFileProtected("node3", Stat(0400, "alice"));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.findings[0].message.rfind("node3: /etc/munge/munge.key is owned by alice:alice, expected munge (or root)", 0),
            0u)
      << r.findings[0].message;
}


// ---- DaemonReachable ----

TEST(MungeDaemonReachable, EncodeAndSelfDecodeConform) {
  auto r = CheckDaemonReachable("node1", Report({Ok("node1"), Ok("node2")}));
  EXPECT_EQ(r.verdict, Verdict::kPass) << FirstMessage(r);
}

TEST(MungeDaemonReachable, SocketMissingQuotesMungeAndSaysStartMunged) {
  const std::string said = "Failed to access \"/run/munge/munge.socket.2\": No such file or directory";
  auto r = CheckDaemonReachable("node2", EncodeFailed(said, {NoCredential("node2")}));
  ExpectFirstFinding(r, "node2",
                     "node2: munge -n failed: " + said +
                         ": munged is not running on node2, or listens on another socket; start munged");
}

TEST(MungeDaemonReachable, SelfDecodeFailureFails) {
  auto r = CheckDaemonReachable("node1", Report({SocketDown("node1")}));
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_EQ(r.findings[0].code, "self-decode-failed");
  EXPECT_EQ(r.findings[0].message.rfind("node1: munged encoded a credential but could not decode it on the same node", 0), 0u);
}

TEST(MungeDaemonReachable, NoSelfDecodeIsAnError) {
  auto r = CheckDaemonReachable("node1", Report({Ok("node2")}));
  ASSERT_EQ(r.verdict, Verdict::kError);
  EXPECT_EQ(r.findings[0].code, "self-decode-not-run");
  EXPECT_EQ(FirstMessage(r), "node1: munge-decode.txt has no decode of node1's own credential");
}

// ---- ClockSkewWithinTtl ----

using Clocks = std::map<std::string, Result<long long>>;
constexpr long long kT0 = 1796221101000000000LL;

TEST(MungeClockSkewWithinTtl, ClocksWithinTheLimitConform) {
  Clocks c;
  c.emplace("node1", kT0);
  c.emplace("node2", kT0 + 2500000);  // 2.5 ms
  auto r = CheckClockSkewWithinTtl(Facts(c), LocalProfile());
  EXPECT_EQ(r.verdict, Verdict::kPass) << FirstMessage(r);
  ASSERT_NE(FindMeasurement(r, "clock_skew_s"), nullptr);
  EXPECT_EQ(FindMeasurement(r, "clock_skew_s")->value, "0.003");
  EXPECT_EQ(FindMeasurement(r, "clock_skew_s")->threshold, "<= 300");
  EXPECT_EQ(FindMeasurement(r, "clock_skew_s")->unit, "s");
}

TEST(MungeClockSkewWithinTtl, SkewBeyondTheLimitNamesFastestAndSlowest) {
  Clocks c;
  c.emplace("node1", kT0);
  c.emplace("node2", kT0 + 412300000000LL);
  c.emplace("node3", kT0 + 1000000000LL);
  auto r = CheckClockSkewWithinTtl(Facts(c), LocalProfile());
  ExpectFirstFinding(r, "node2",
                     "node2 (fastest) and node1 (slowest): clocks differ by 412.300 s, limit 300 s "
                     "(profile local)");
  EXPECT_TRUE(AnyMessageContains(r, "run chrony or NTP on every node"));
  EXPECT_EQ(FindMeasurement(r, "node3.clock_ahead_of_slowest_s")->value, "1.000");
}

TEST(MungeClockSkewWithinTtl, MissingReadingIsAnErrorAndNoLimitIsNotApplicable) {
  Clocks c;
  c.emplace("node1", kT0);
  c.emplace("node2", Error{"node2: no clock.txt (the snapshot has no s/nodes/node2/clock.txt)"});
  auto r = CheckClockSkewWithinTtl(Facts(c), LocalProfile());
  ASSERT_EQ(r.verdict, Verdict::kError);
  EXPECT_EQ(FirstMessage(r), "node2: no clock.txt (the snapshot has no s/nodes/node2/clock.txt)");
  const Profile no_limit = LocalProfile(/*present=*/true, /*max_clock_skew_s=*/0);
  EXPECT_EQ(ClockSkewNotApplicable(no_limit),
            "profile local sets no munge.max_clock_skew_s, so there is no limit to judge against");
  EXPECT_EQ(ClockSkewNotApplicable(NoMungeProfile()), NotApplicable(NoMungeProfile()));
  EXPECT_EQ(ClockSkewNotApplicable(LocalProfile()), std::nullopt);
}

// ---- the suite: files in, verdicts out ----

const SuiteDefinition& MungeSuite() {
  for (const auto* suite : SuiteRegistry::Instance().Suites()) {
    if (suite->name == "Munge") return *suite;
  }
  throw std::runtime_error("Munge suite is not registered");
}

RawOutput File(const std::string& text) { return {ProbeStatus::kOk, text, "snap/file", ""}; }

TEST(MungeSuite, RegistersItsChecksAndProbes) {
  const auto& suite = MungeSuite();
  ASSERT_EQ(suite.probes.size(), 4u);
  std::vector<std::string> files;
  for (const auto& probe : suite.probes) {
    EXPECT_EQ(probe.scope, ProbeScope::kNode) << probe.id;
    if (probe.id == "munge-key-stat") {
      EXPECT_EQ(probe.method, ProbeMethod::kBuiltin);
      EXPECT_TRUE(static_cast<bool>(probe.builtin));
    } else {
      EXPECT_EQ(probe.method, ProbeMethod::kCollective) << probe.id;
      EXPECT_TRUE(static_cast<bool>(probe.collective)) << probe.id;
    }
    files.push_back(probe.file);
  }
  EXPECT_EQ(files, (std::vector<std::string>{"munge-key.digest", "munge-key-stat.txt", "munge-decode.txt", "clock.txt"}));
  EXPECT_EQ(suite.checks.size(), 5u);
}

TEST(MungeSuite, EvaluatesFilesAndReportsAMissingOneNamingNodeAndFile) {
  ClusterRaw raw;
  raw.nodes = {"node1", "node2"};
  for (const auto& node : raw.nodes) {
    raw.node[node]["munge-key-digest"] = File(kDigestText);
    raw.node[node]["munge-key-stat"] = File(kStatText);
    raw.node[node]["munge-cross-decode"] = File(
        "socket /s\nencode: ok\nnodes 2\nfrom node1: status=Success exit=0 STATUS: Success (0)\n"
        "from node2: status=Success exit=0 STATUS: Success (0)\n");
  }
  raw.node["node1"]["clock"] = File("epoch_ns 1796221101000000000\n");
  const Profile profile = LocalProfile();
  const std::vector<RankInfo> ranks;
  const SuiteContext context{raw, profile, ranks, false, ""};
  const auto results = test_support::EvaluateOneSuite(MungeSuite(), context);
  std::map<std::string, const CheckResult*> by_name;
  for (const auto& r : results) by_name[r.TestName()] = &r;
  ASSERT_EQ(results.size(), 7u);
  EXPECT_EQ(results[0].TestName(), "Munge.CredentialsDecodeAcrossNodes");
  EXPECT_EQ(results[2].TestName(), "Munge.KeyFileProtected/node1");
  EXPECT_EQ(results[5].TestName(), "Munge.DaemonReachable/node2");
  EXPECT_EQ(by_name.at("Munge.CredentialsDecodeAcrossNodes")->verdict, Verdict::kPass);
  EXPECT_EQ(by_name.at("Munge.KeyIdenticalOnAllNodes")->verdict, Verdict::kPass);
  EXPECT_EQ(by_name.at("Munge.KeyFileProtected/node1")->verdict, Verdict::kPass);
  EXPECT_EQ(by_name.at("Munge.DaemonReachable/node2")->verdict, Verdict::kPass);
  const auto* clock = by_name.at("Munge.ClockSkewWithinTtl");
  ASSERT_EQ(clock->verdict, Verdict::kError);
  EXPECT_EQ(FirstMessage(*clock).rfind("node2: no clock.txt", 0), 0u) << FirstMessage(*clock);
  EXPECT_EQ(clock->findings[0].entity, "cluster");
}

// A node's file that could not be read is its per-node check's error, naming node and file.
TEST(MungeSuite, AFileThatCouldNotBeReadIsThatNodesError) {
  ClusterRaw raw;
  raw.nodes = {"node1"};
  raw.node["node1"]["munge-cross-decode"] = {ProbeStatus::kToolMissing, "", "",
                                             "node1: `munge` is not installed (not found on PATH)"};
  const Profile profile = LocalProfile();
  const std::vector<RankInfo> ranks;
  const auto results = test_support::EvaluateOneSuite(MungeSuite(), SuiteContext{raw, profile, ranks, false, ""});
  std::map<std::string, const CheckResult*> by_name;
  for (const auto& r : results) by_name[r.TestName()] = &r;
  const auto* stat = by_name.at("Munge.KeyFileProtected/node1");
  ASSERT_EQ(stat->verdict, Verdict::kError);
  EXPECT_EQ(stat->findings[0].code, "unparseable");
  EXPECT_EQ(stat->findings[0].entity, "node1");
  EXPECT_EQ(FirstMessage(*stat).rfind("node1: no munge-key-stat.txt", 0), 0u) << FirstMessage(*stat);
  const auto* daemon = by_name.at("Munge.DaemonReachable/node1");
  ASSERT_EQ(daemon->verdict, Verdict::kError);
  EXPECT_EQ(FirstMessage(*daemon), "node1: `munge` is not installed (not found on PATH)");
}

// The profile's skip wins over a file that could not be read: no check reads anything.
TEST(MungeSuite, EveryCheckIsSkippedWhereTheProfileHasNoMungeEvenWithoutFiles) {
  ClusterRaw raw;
  raw.nodes = {"node1", "node2"};
  const std::vector<RankInfo> ranks;
  for (const Profile& profile : {NoMungeProfile(), NoMungeSectionProfile()}) {
    const auto results = test_support::EvaluateOneSuite(MungeSuite(), SuiteContext{raw, profile, ranks, false, ""});
    ASSERT_EQ(results.size(), 7u);
    for (const auto& r : results) {
      EXPECT_EQ(r.verdict, Verdict::kSkip) << r.TestName();
      EXPECT_EQ(FirstMessage(r), NotApplicable(profile).value_or("")) << r.TestName();
    }
    EXPECT_EQ(results[3].TestName(), "Munge.KeyFileProtected/node2");
    EXPECT_EQ(results[3].findings[0].entity, "node2");
  }
  const Profile no_limit = LocalProfile(/*present=*/true, /*max_clock_skew_s=*/0);
  const auto results = test_support::EvaluateOneSuite(MungeSuite(), SuiteContext{raw, no_limit, ranks, false, ""});
  EXPECT_EQ(results.back().TestName(), "Munge.ClockSkewWithinTtl");
  EXPECT_EQ(results.back().verdict, Verdict::kSkip);
}

// Each node's files are parsed once, however many checks read them (the decode report feeds
// two checks), and the readers cache what they parsed.
TEST(MungeFacts, EachNodesFilesAreParsedOncePerRun) {
  ClusterRaw raw;
  raw.nodes = {"node1"};
  raw.node["node1"]["munge-key-stat"] = File(kStatText);
  const Result<KeyStat>& first = ReadKeyStat(raw, "node1");
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(&ReadKeyStat(raw, "node1"), &first) << "the second read returns the cached fact";
  const Result<long long>& clock = ReadClockReading(raw, "node1");
  ASSERT_FALSE(clock);
  EXPECT_EQ(clock.error().rfind("node1: no clock.txt (", 0), 0u) << clock.error();
  EXPECT_EQ(&ReadClockReading(raw, "node1"), &clock);
}

// ---- real outputs (../shared/realdata/munge) ----

using test_support::ReadFile;

fs::path RealDataDir() { return fs::path(GPUCONFORM_REALDATA_DIR) / "munge"; }

int ExitCodeOf(MungeFailure kind) {
  switch (kind) {
    case MungeFailure::kInvalidCredential: return 14;
    case MungeFailure::kExpiredCredential: return 15;
    case MungeFailure::kRewoundCredential: return 16;
    case MungeFailure::kReplayedCredential: return 17;
    case MungeFailure::kUnauthorizedCredential: return 18;
    case MungeFailure::kMalformedCredential: return 8;
    case MungeFailure::kSocketUnreachable:
    case MungeFailure::kDaemonFailed: return 6;
  }
  return 1;
}

std::string EncodeHostOf(const std::string& unmunge_output) {
  for (const auto line : SplitLines(unmunge_output)) {
    const auto at = line.find("ENCODE_HOST:");
    if (at == std::string_view::npos) continue;
    std::istringstream words(std::string(line.substr(at + 12)));
    std::string host;
    words >> host;
    return host;
  }
  return "encoder";
}

// What a real text means for the suite: a working decode is one decoded pair; a daemon or
// socket failure is this node's failed munge -n; a credential failure is node3's
// credentials rejected by (and rejecting) node1 and node2.
CheckResult JudgeRealText(const std::string& text) {
  const auto failure = FindMungeFailure(text);
  if (!failure) {
    // The spot check decodes in one direction; the reverse decode is given the same
    // observed verdict, since one shared key (what the source reports) decodes both ways.
    const auto verdict = InterpretUnmunge(0, text, "");
    const int code = verdict.status == "Success" ? 0 : 1;
    const std::string encoder = EncodeHostOf(text);
    Reports reports;
    reports.emplace(encoder, Report({{"decoder", verdict.status, code, verdict.message}}));
    reports.emplace("decoder", Report({{encoder, verdict.status, code, verdict.message}}));
    return CheckCredentialsDecodeAcrossNodes(Facts(reports));
  }
  if (failure->kind == MungeFailure::kSocketUnreachable || failure->kind == MungeFailure::kDaemonFailed) {
    return CheckDaemonReachable("node2", EncodeFailed(failure->line, {NoCredential("node2")}));
  }
  const int code = ExitCodeOf(failure->kind);
  const auto said = InterpretUnmunge(code, "", failure->line);
  const DecodeAttempt rejected_node3{"node3", said.status, code, said.message};
  Reports reports;
  reports.emplace("node1", Report({Ok("node1"), Ok("node2"), rejected_node3}));
  reports.emplace("node2", Report({Ok("node1"), Ok("node2"), rejected_node3}));
  DecodeAttempt rejected_node1{"node1", said.status, code, said.message};
  DecodeAttempt rejected_node2{"node2", said.status, code, said.message};
  reports.emplace("node3", Report({rejected_node1, rejected_node2, Ok("node3")}));
  return CheckCredentialsDecodeAcrossNodes(Facts(reports));
}

// "Verdict: ...: fail." or "...: pass." in the .source.txt written when the text was collected.
std::optional<Verdict> SourceVerdict(const std::string& source) {
  const auto at = source.find("Verdict:");
  if (at == std::string::npos) return std::nullopt;
  const std::string verdict = source.substr(at);
  if (verdict.find("fail") != std::string::npos) return Verdict::kFail;
  if (verdict.find("pass") != std::string::npos) return Verdict::kPass;
  return std::nullopt;
}

TEST(MungeRealData, EveryRecordedOutputGetsTheVerdictItsSourceStates) {
  if (!fs::is_directory(RealDataDir())) GTEST_SKIP() << "no real munge outputs at " << RealDataDir();
  int judged = 0;
  for (const auto& entry : fs::directory_iterator(RealDataDir())) {
    const std::string name = entry.path().filename().string();
    if (name.find(".source.txt") != std::string::npos) continue;
    if (entry.path().extension() != ".txt" && entry.path().extension() != ".log") continue;
    const fs::path source = entry.path().parent_path() / (entry.path().stem().string() + ".source.txt");
    const auto expected = SourceVerdict(ReadFile(source));
    ASSERT_TRUE(expected) << source << " states no pass/fail verdict";
    const CheckResult result = JudgeRealText(ReadFile(entry.path()));
    EXPECT_EQ(VerdictName(result.verdict), std::string(VerdictName(*expected))) << name << ": " << FirstMessage(result);
    ++judged;
  }
  EXPECT_GE(judged, 8);
}

struct RealCase {
  const char* file;
  std::optional<MungeFailure> kind;
  const char* quoted;   // a part of the line the parser must find
  const char* message;  // a part of the verdict's first message
};

TEST(MungeRealData, EachOutputIsClassifiedAndExplained) {
  if (!fs::is_directory(RealDataDir())) GTEST_SKIP() << "no real munge outputs at " << RealDataDir();
  const std::vector<RealCase> cases = {
      {"flux-preflight-unmunge-success-cross-host.txt", std::nullopt, "", ""},
      {"munge-118-sbatch-munged-not-running.txt", MungeFailure::kSocketUnreachable,
       "Failed to access \"/run/munge/munge.socket.2\": No such file or directory",
       "munged is not running on node2, or listens on another socket; start munged"},
      {"munge-124-munge-encode-failed-socket.txt", MungeFailure::kSocketUnreachable,
       "Unable to access \"/var/run/munge/munge.socket.2\"",
       "munged is not running on node2, or listens on another socket; start munged"},
      {"munge-125-munged-start-failed-systemctl.txt", MungeFailure::kDaemonFailed, "munge.service failed",
       "munged failed to start on node2"},
      {"munge-30-munged-logfile-insecure.txt", MungeFailure::kDaemonFailed, "Starting MUNGE munged",
       "munged failed to start on node2"},
      {"rancavil-6-slurmctld-invalid-authentication-credential.log", MungeFailure::kInvalidCredential,
       "Invalid authentication credential",
       "node3: credentials from node1, node2 are rejected with 'Invalid credential' and node3's are rejected by them: "
       "node3 holds a different MUNGE key"},
      {"trinity-477-slurmctld-munge-decode-invalid-credential.log", MungeFailure::kInvalidCredential,
       "Munge decode failed: Invalid credential", "node3 holds a different MUNGE key"},
      {"trinity-759-slurmctld-journal-invalid-credential.txt", MungeFailure::kInvalidCredential,
       "has authentication error: Invalid credential", "node3 holds a different MUNGE key"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string text = ReadFile(RealDataDir() / c.file);
    ASSERT_FALSE(text.empty());
    const auto failure = FindMungeFailure(text);
    if (!c.kind) {
      EXPECT_FALSE(failure) << failure->line;
      EXPECT_EQ(InterpretUnmunge(0, text, "").status, "Success");
      EXPECT_EQ(EncodeHostOf(text), "test1");
      EXPECT_EQ(JudgeRealText(text).verdict, Verdict::kPass);
      continue;
    }
    ASSERT_TRUE(failure);
    EXPECT_EQ(failure->kind, *c.kind) << failure->line;
    EXPECT_NE(failure->line.find(c.quoted), std::string::npos) << failure->line;
    const CheckResult result = JudgeRealText(text);
    EXPECT_EQ(result.verdict, Verdict::kFail);
    EXPECT_NE(FirstMessage(result).find(c.message), std::string::npos) << FirstMessage(result);
  }
}

// ---- the live probes, on this machine, as a one-process world ----

World OneProcessWorld() {
  auto world = World::Start(LaunchFacts{});
  if (!world) throw std::runtime_error(world.error());
  return world.value();
}

std::string Hex(const std::string& bytes, bool upper) {
  static constexpr char kLower[] = "0123456789abcdef";
  static constexpr char kUpper[] = "0123456789ABCDEF";
  const char* digits = upper ? kUpper : kLower;
  std::string hex;
  for (unsigned char c : bytes) {
    hex += digits[c >> 4];
    hex += digits[c & 0x0f];
  }
  return hex;
}

std::string Unhex(const std::string& hex) {
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return bytes;
}

class MungeProbes : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuconform-munge-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string WriteKey(std::size_t size) {
    std::random_device device;
    std::string key;
    for (std::size_t i = 0; i < size; ++i) key += static_cast<char>(device() & 0xff);
    const fs::path path = dir_ / "munge.key";
    std::ofstream(path, std::ios::binary) << key;
    chmod(path.c_str(), 0400);
    return key;
  }
  std::string KeyPath() const { return (dir_ / "munge.key").string(); }

  fs::path dir_;
};

TEST_F(MungeProbes, HmacSha256MatchesRfc4231) {
  EXPECT_EQ(HmacSha256Hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST_F(MungeProbes, KeyBytesNeverAppearInAnyProbeOutput) {
  const std::string key = WriteKey(1024);
  RunOptions options;
  options.munge_key = KeyPath();
  const World world = OneProcessWorld();
  const CollectiveContext context{world, nullptr, "testnode", true, {"testnode"}, options};
  const std::vector<RawOutput> outputs = {ProbeKeyDigest(context), ProbeKeyStat(LiveContext{"testnode", nullptr, options})};
  ASSERT_TRUE(outputs[0].ok()) << outputs[0].detail;
  ASSERT_TRUE(outputs[1].ok()) << outputs[1].detail;

  std::vector<std::string> secrets = {key, Hex(key, false), Hex(key, true)};
  // Any 12-byte window of the key, raw or as hex, would be a leak too.
  for (std::size_t at = 0; at + 12 <= key.size(); at += 12) {
    const std::string window = key.substr(at, 12);
    secrets.push_back(window);
    secrets.push_back(Hex(window, false));
    secrets.push_back(Hex(window, true));
  }
  for (const auto& out : outputs) {
    for (const std::string* field : {&out.text, &out.detail, &out.origin}) {
      for (const auto& secret : secrets) {
        ASSERT_EQ(field->find(secret), std::string::npos) << "key material in a probe output: " << out.origin;
      }
    }
  }

  const auto digest = test_support::Parsed(ParseKeyDigest(outputs[0].text, outputs[0].origin));
  EXPECT_EQ(digest.hmac_hex, HmacSha256Hex(key, Unhex(digest.nonce_hex)));
  const auto stat = test_support::Parsed(ParseKeyStat(outputs[1].text, outputs[1].origin));
  EXPECT_EQ(stat.size_bytes, 1024);
  EXPECT_EQ(stat.mode, 0400u);
  EXPECT_EQ(CheckKeyFileProtected("testnode", stat).verdict,
            geteuid() == 0 ? Verdict::kPass : Verdict::kFail);
}

TEST_F(MungeProbes, EachRunDrawsAFreshNonce) {
  WriteKey(64);
  RunOptions options;
  options.munge_key = KeyPath();
  const World world = OneProcessWorld();
  const CollectiveContext context{world, nullptr, "testnode", true, {"testnode"}, options};
  auto first = ParseKeyDigest(ProbeKeyDigest(context).text, "first");
  auto second = ParseKeyDigest(ProbeKeyDigest(context).text, "second");
  ASSERT_TRUE(first && second);
  EXPECT_NE(first->nonce_hex, second->nonce_hex);
  EXPECT_NE(first->hmac_hex, second->hmac_hex);
}

TEST_F(MungeProbes, MissingKeyNamesNodeAndPath) {
  RunOptions options;
  options.munge_key = (dir_ / "absent.key").string();
  const World world = OneProcessWorld();
  const CollectiveContext context{world, nullptr, "testnode", true, {"testnode"}, options};
  const RawOutput digest = ProbeKeyDigest(context);
  EXPECT_FALSE(digest.ok());
  EXPECT_EQ(digest.detail.rfind("testnode: cannot read the MUNGE key " + (dir_ / "absent.key").string() +
                                    " (GPUCONFORM_MUNGE_KEY): no such file or directory",
                                0),
            0u)
      << digest.detail;
  const RawOutput stat = ProbeKeyStat(LiveContext{"testnode", nullptr, options});
  EXPECT_FALSE(stat.ok());
  EXPECT_NE(stat.detail.find("testnode: cannot stat the MUNGE key"), std::string::npos) << stat.detail;
}

TEST_F(MungeProbes, CrossDecodeWithoutMungedReportsMungesOwnError) {
  RunOptions options;
  options.munge_socket = (dir_ / "no-munged.socket").string();
  const World world = OneProcessWorld();
  const CollectiveContext context{world, nullptr, "testnode", true, {"testnode"}, options};
  const RawOutput out = ProbeCrossDecode(context);
  if (out.status == ProbeStatus::kToolMissing) GTEST_SKIP() << out.detail;
  ASSERT_TRUE(out.ok()) << out.detail;
  auto report = ParseDecodeReport(out.text, out.origin);
  ASSERT_TRUE(report) << report.error() << "\n" << out.text;
  EXPECT_FALSE(report->encode_ok);
  EXPECT_NE(report->encode_failure.find("Failed to access"), std::string::npos) << report->encode_failure;
  const CheckResult r = CheckDaemonReachable("testnode", *report);
  ASSERT_EQ(r.verdict, Verdict::kFail);
  EXPECT_NE(FirstMessage(r).find("munged is not running on testnode, or listens on another socket; start munged"),
            std::string::npos)
      << FirstMessage(r);
}

TEST_F(MungeProbes, ClockReadsRealtime) {
  const World world = OneProcessWorld();
  const CollectiveContext context{world, nullptr, "testnode", true, {"testnode"}};
  const RawOutput out = ProbeClock(context);
  const auto ns = test_support::Parsed(ParseClockReading(out.text, out.origin));
  EXPECT_GT(ns, 1600000000LL * 1000000000LL);
  const CollectiveContext non_owner{world, nullptr, "testnode", false, {"testnode"}};
  EXPECT_EQ(ProbeClock(non_owner).status, ProbeStatus::kAbsent);
}

}  // namespace
}  // namespace gpuconform::munge
