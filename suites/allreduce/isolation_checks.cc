#include "suites/allreduce/isolation_checks.h"

#include <fmt/format.h>

#include <set>

#include "harness/util/hostlist.h"
#include "harness/util/text_util.h"
#include "suites/allreduce/allreduce_checks.h"

namespace gpuconform::allreduce {

namespace {

using isolation::Finding;
using isolation::FindingKind;
using isolation::IsolationRecord;
using isolation::RecordedTest;

const RecordedTest* TestAt(const IsolationRecord& record, int round, int test) {
  for (const RecordedTest& recorded : record.tests) {
    if (recorded.round == round && recorded.test == test) return &recorded;
  }
  return nullptr;
}

// "round 3: node[5-6] slow 0.021 GB/s; round 4: node[1,6] slow 0.019 GB/s", the tests that show it.
std::string EvidenceText(const IsolationRecord& record, const Finding& finding) {
  std::vector<std::string> parts;
  for (const isolation::Evidence& evidence : finding.evidence) {
    const RecordedTest* test = TestAt(record, evidence.round, evidence.test);
    if (test == nullptr) continue;
    std::string part = fmt::format("round {}: {} {}", evidence.round, CompressHostlist(test->planned.nodes),
                                   isolation::OutcomeName(evidence.outcome));
    if (evidence.outcome != isolation::Outcome::kFail) part += fmt::format(" {:.3f} GB/s", evidence.busbw_gb_per_s);
    if (evidence.outcome == isolation::Outcome::kFail && !test->result.why.empty()) {
      constexpr std::size_t kWhyChars = 120;  // the whole of it is in cluster/isolation.txt
      const std::string& why = test->result.why;
      part += " (" + (why.size() > kWhyChars ? why.substr(0, kWhyChars) + "..." : why) + ")";
    }
    parts.push_back(part);
  }
  constexpr std::size_t kShown = 6;  // the rest is in cluster/isolation.txt
  if (parts.size() > kShown) {
    const std::size_t more = parts.size() - kShown;
    parts.resize(kShown);
    parts.push_back(fmt::format("{} more in cluster/isolation.txt", more));
  }
  return Join(parts, "; ");
}

// "MPI_Allreduce of 8 MiB (floor 0.050 GB/s)", what each test measured.
std::string MeasuredText(const IsolationRecord& record) {
  std::string text = (record.measure.collective.empty() ? std::string("the collective") : record.measure.collective);
  if (record.measure.size_bytes > 0) text += " of " + HumanSize(record.measure.size_bytes);
  if (record.measure.floor_gb_per_s > 0) text += fmt::format(" (floor {:.3f} GB/s)", record.measure.floor_gb_per_s);
  return text;
}

std::string ScopeText(const Finding& finding) {
  if (finding.scope.empty()) return "";
  return " (" + finding.scope + " only)";
}

gpuconform::Finding Reported(const IsolationRecord& record, const Finding& finding) {
  const std::string evidence = EvidenceText(record, finding);
  const std::string measured = MeasuredText(record);
  const std::string shown = evidence.empty() ? "" : " [" + evidence + "]";
  switch (finding.kind) {
    case FindingKind::kNode:
    case FindingKind::kSlowNode: {
      const bool slow = finding.kind == FindingKind::kSlowNode;
      const std::string& node = finding.nodes.front();
      return {slow ? ReasonCode("isolated-slow-node") : ReasonCode("isolated-node"), node,
              node + ": " + measured +
                  (slow ? " is below its floor in every test that holds it and meets it without"
                        : " fails in every test that holds it and passes without it") +
                  ScopeText(finding) + ": " + finding.detail + shown + "; drain " + node + " and check its " +
                  (slow ? "NIC's link rate and errors" : "fabric NIC") + ", cable and switch port"};
    }
    case FindingKind::kPair: {
      const std::string entity = LinkEntity(finding);
      return {"isolated-pair", entity,
              entity + ": " + measured + " fails with both " + finding.nodes[0] + " and " + finding.nodes[1] +
                  " in it, while each passes with other nodes" + ScopeText(finding) + ": " + finding.detail + shown +
                  "; the path between them is broken (route, firewall, switch ports); neither node is drained"};
    }
    case FindingKind::kBoundary: {
      const std::string entity = LinkEntity(finding);
      std::string groups;
      if (!finding.groups.empty()) groups = " (" + Join(finding.groups, ", ") + ")";
      const std::string shared =
          finding.shared.empty() ? "the links between them" : "what joins them, " + finding.shared;
      return {"isolated-boundary", entity,
              entity + ": " + CompressHostlist(finding.side_a) + " and " + CompressHostlist(finding.side_b) + groups +
                  " each pass " + measured + " alone but not together" + ScopeText(finding) + ": " + finding.detail +
                  shown + "; check " + shared + "; no node is drained"};
    }
    case FindingKind::kInconclusive:
      break;
  }
  const std::string suspects = finding.nodes.empty() ? "the allocation" : ShortHostlist(finding.nodes);
  return {"isolation-inconclusive", "suspects " + suspects,
          suspects + ": " + measured + " fails or is slow, and the isolation could not name the cause: " +
              finding.detail + shown};
}

}  // namespace

std::string LinkEntity(const Finding& finding) {
  if (finding.kind == FindingKind::kBoundary) {
    return CompressHostlist(finding.side_a) + "<->" + CompressHostlist(finding.side_b);
  }
  return Join(finding.nodes, "<->");
}

std::map<std::string, std::string> NodesTracedToLinks(const std::vector<Finding>& findings) {
  std::set<std::string> named;
  for (const Finding& finding : findings) {
    if (finding.kind == FindingKind::kNode || finding.kind == FindingKind::kSlowNode) named.insert(finding.nodes[0]);
  }
  std::map<std::string, std::string> traced;
  for (const Finding& finding : findings) {
    if (finding.kind != FindingKind::kPair && finding.kind != FindingKind::kBoundary) continue;
    std::vector<std::string> nodes = finding.nodes;
    if (finding.kind == FindingKind::kBoundary) {
      nodes = finding.side_a;
      nodes.insert(nodes.end(), finding.side_b.begin(), finding.side_b.end());
    }
    for (const std::string& node : nodes) {
      if (!named.count(node)) traced.emplace(node, LinkEntity(finding));
    }
  }
  return traced;
}

CheckResult CheckFaultIsolation(const IsolationRecord& record, const std::vector<Finding>& findings) {
  int rounds = 0;
  for (const RecordedTest& test : record.tests) rounds = std::max(rounds, test.round);
  CheckResult result = findings.empty() ? Passed() : Failed({});
  result.measurements.push_back({"isolation_rounds", std::to_string(rounds), "",
                                 record.input.round_budget > 0 ? "<= " + std::to_string(record.input.round_budget) : "",
                                 "rounds of concurrent tests, the screen included"});
  result.measurements.push_back({"isolation_tests", std::to_string(record.tests.size()), "", "", "tests run"});
  if (record.tests.empty()) {
    return Errored("not-measured", "cluster/isolation.txt records no test: the sweep's isolation did not run");
  }
  for (const Finding& finding : findings) result.findings.push_back(Reported(record, finding));
  return result;
}

}  // namespace gpuconform::allreduce
