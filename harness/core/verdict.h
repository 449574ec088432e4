// The outcome of one check on one entity (a node, or the whole cluster).
// Contract: checks are pure functions that return CheckResults; the harness turns each
// into one test case. kFail = non-conformance (<failure>), kError = the fact could not be
// obtained (<error>), kSkip = the profile says the check does not apply (<skipped>).
// kRegression = the check conforms, but a metric moved the wrong way past its tolerance
// against the run's baseline (--baseline; <failure type="metric-regression">). Checks never
// return it: the comparison with the baseline (baseline/regression.h) sets it afterwards.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/core/reason_code.h"
#include "harness/util/interned_text.h"

namespace gpuconform {

enum class Verdict { kPass, kFail, kError, kSkip, kRegression };

const char* VerdictName(Verdict verdict);  // "pass", "fail", "error", "skip", "regression"
// What needs a person first, 0 the most: fail, regression, error, pass, skip. The exit status's
// order (a regression is a finding, an error a fact not obtained), used wherever verdicts are
// ranked: the HTML report's order, and the verdict a merge keeps for a cluster-wide case.
int AttentionRank(Verdict verdict);

// One problem found: a code from the reason catalogue (stable, for dashboards and docs;
// `gpuconform explain CODE`), the entity it concerns (e.g. "node7/gpu3/link11"), and a
// message that says observed vs expected and the fix.
struct Finding {
  ReasonCode code;
  std::string entity;
  std::string message;
};

// The same metric in the baseline run, when the run has one (--baseline). A plain struct
// with a flag rather than an optional: GCC 12 warns (maybe-uninitialized) on every
// brace-initialised Measurement that holds an optional.
struct BaselineComparison {
  bool compared = false;       // the baseline has this metric, and it was compared
  double value = 0;            // the baseline's value for this node, or its fleet median
  double change_fraction = 0;  // (measured - baseline) / baseline: -0.2 is 20% lower
  bool node_is_new = false;    // the baseline has no value for this node: compared with its fleet median
  double tolerance_fraction = 0;
  bool regressed = false;  // moved the wrong way by more than the tolerance
};

// A number the check measured or read, reported as a JUnit property.
struct Measurement {
  std::string name;  // e.g. "node1.kernel" or "busbw_gb_per_s@16GiB"
  std::string value;
  std::string unit;       // empty for text values
  std::string threshold;  // empty when the check has none, e.g. ">= 460"
  // Where the threshold came from: the profile's citation, the same on every node, so held once.
  InternedText source;
  BaselineComparison baseline = {};  // set by the baseline comparison
};

// A check's name, written once: GPUCONFORM_CHECK_NAME(GresRegistered) declares
// kGresRegistered = "GresRegistered", the constant a suite's CheckDefinition, its messages
// ("see GresRegistered") and its tests use, so the name and its spelling cannot drift apart.
#define GPUCONFORM_CHECK_NAME(name) inline constexpr char k##name[] = #name

struct CheckResult {
  std::string suite;   // JUnit <testsuite name>, e.g. "Munge"
  std::string check;   // e.g. "KeyIdenticalOnAllNodes"
  std::string node;    // empty for cluster-wide checks; else the node the case is about
  Verdict verdict = Verdict::kPass;
  std::vector<Finding> findings;  // why it failed, errored or was skipped
  std::vector<Measurement> measurements;
  double time_s = 0.0;

  // "Suite.Check" or "Suite.Check/node" — the GoogleTest full name.
  std::string TestName() const;
  // Check name as GoogleTest sees it: "Check" or "Check/node".
  std::string CaseName() const;
};

// Judgements: what a check returns. A check states only its verdict, findings and measurements;
// the harness names the case (suite, check and node) from the check's definition when it
// stamps the judgement (Stamped below; suite_registry.h does it for every check it runs). A
// finding a builder adds is about the judged entity, which the stamp fills in.
CheckResult Passed();
CheckResult Failed(std::vector<Finding> findings);
// A message that says a device tool hung with its driver loaded (os_error.h) makes a hardware
// failure "device-tool-hung" instead, whatever `code` says.
CheckResult Errored(ReasonCode code, std::string message);
// An error with one finding per problem (at least one), each best led by its node ("node7: ..."):
// the reports group problems that differ only in their node into one line with a hostlist, where
// one message joining them would grow with the fleet.
CheckResult ErroredEach(ReasonCode code, const std::vector<std::string>& problems);
// A skip's finding has the code "not-applicable"; reason says why.
CheckResult Skipped(std::string reason);
// A check that collected findings fails when it has any, passes otherwise.
CheckResult FromFindings(std::vector<Finding> findings);

// The judgement as a named case: its suite, check and node, and the judged entity (the node,
// or "cluster") on every finding that names none.
CheckResult Stamped(CheckResult judgement, const std::string& suite, const std::string& check,
                    const std::string& node);

// Builders of a case named at once, for the harness's own cases (a suite that threw, a node
// not covered), where no check's definition names them.
CheckResult Passed(std::string suite, std::string check, std::string node = "");
CheckResult Failed(std::string suite, std::string check, std::string node, std::vector<Finding> findings);
CheckResult Errored(std::string suite, std::string check, std::string node, ReasonCode code,
                    std::string message);
CheckResult ErroredEach(std::string suite, std::string check, std::string node, ReasonCode code,
                        const std::vector<std::string>& problems);
CheckResult Skipped(std::string suite, std::string check, std::string node, std::string reason);
CheckResult FromFindings(std::string suite, std::string check, std::string node,
                         std::vector<Finding> findings);

}  // namespace gpuconform
