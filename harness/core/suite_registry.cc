#include "harness/core/suite_registry.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>
#include <set>

namespace gpuconform {

SuiteRegistry& SuiteRegistry::Instance() {
  static SuiteRegistry registry;
  return registry;
}

void SuiteRegistry::Add(SuiteDefinition suite) { suites_.push_back(std::move(suite)); }

std::vector<const SuiteDefinition*> SuiteRegistry::Suites() const {
  std::vector<const SuiteDefinition*> sorted;
  for (const auto& suite : suites_) sorted.push_back(&suite);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->name < b->name; });
  return sorted;
}

std::vector<ProbeSpec> SuiteRegistry::AllProbes() const { return ProbesOf(Suites()); }

std::vector<ProbeSpec> ProbesOf(const std::vector<const SuiteDefinition*>& suites) {
  std::vector<ProbeSpec> probes;
  for (const auto* suite : suites) {
    for (const auto& probe : suite->probes) AddProbeOnce(probes, probe);
  }
  return probes;
}

namespace {

// One check's case for one node (or the cluster, node ""): skipped where the check does not
// apply, else the check's judgement; named from the check's definition either way.
CheckResult Named(const SuiteDefinition& suite, const CheckDefinition& check, const std::string& node,
                  CheckResult judgement) {
  CheckResult result = Stamped(std::move(judgement), suite.name, check.name, node);
  // Kept until the reports are written: the spare capacity a check's push_backs left would
  // be a fleet's results' largest waste.
  result.findings.shrink_to_fit();
  result.measurements.shrink_to_fit();
  return result;
}

std::optional<std::string> NotApplicable(const CheckDefinition& check, const SuiteContext& context,
                                         const std::string& node) {
  if (!check.not_applicable) return std::nullopt;
  return check.not_applicable(context, node);
}

CheckResult JudgeCheck(const SuiteDefinition& suite, const CheckDefinition& check, const SuiteContext& context,
                       const std::string& node) {
  if (auto why = NotApplicable(check, context, node)) return Named(suite, check, node, Skipped(*why));
  return Named(suite, check, node, check.judge(context, node));
}

// One suite's share of the run: its nodes, its time, and what it threw, if it threw.
struct SuiteRun {
  const SuiteDefinition* suite = nullptr;
  // The nodes its per-node checks judge: the run's, or its own (judged_nodes).
  const std::vector<std::string>* nodes = nullptr;
  std::vector<std::string> own_nodes;
  std::optional<CheckResult> unavailable;  // its own node list could not be read
  double elapsed_s = 0;
  std::string defect;  // the exception's text; the suite's checks then become internal errors
  bool OwnNodes() const { return nodes == &own_nodes; }
};

// Runs part of a suite's work, adding to its time. A suite that throws does not crash the run;
// the rest of its work is skipped and its checks report the defect.
template <typename Work>
void RunPart(SuiteRun& run, Work work) {
  if (!run.defect.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  try {
    work();
  } catch (const std::exception& e) {
    run.defect = e.what();
  }
  run.elapsed_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One case per check, each the same judgement: a suite that threw (internal errors), or one
// whose own node list could not be read.
std::vector<CheckResult> OneCaseEach(const SuiteDefinition& suite, const CheckResult& judgement) {
  std::vector<CheckResult> cases;
  for (const auto& check : suite.checks) cases.push_back(Named(suite, check, "", judgement));
  return cases;
}

CheckResult DefectJudgement(const SuiteRun& run) {
  return Errored("internal-error", "gpuconform defect: suite " + run.suite->name + " threw: " + run.defect +
                                       " (please report it with the snapshot)");
}

// Each result gets an equal share of its suite's time where its judgement measured none.
void ShareTime(std::vector<CheckResult>::iterator begin, std::vector<CheckResult>::iterator end, double elapsed_s) {
  const auto count = static_cast<std::size_t>(end - begin);
  for (auto it = begin; it != end; ++it) {
    if (it->time_s == 0.0) it->time_s = elapsed_s / count;
  }
}

// What was read of every node at once (a cluster check, a suite's own nodes) is dropped; the
// node-by-node pass parses a node's outputs again where its checks need them.
void DropEveryNodesFacts(const SuiteContext& context) {
  for (const auto& node : context.raw.nodes) context.raw.facts.ClearNode(node);
}

// A cluster check comparing every node's reading, read node by node and judged after.
struct PendingComparison {
  std::size_t suite = 0;  // index in the run's suites
  std::size_t check = 0;  // index in the suite's checks
  std::size_t slot = 0;   // its case's place in the results
  std::unique_ptr<NodeComparison> comparison;
};

// Where a suite puts its cases in the run's results: from `first`, each check's in declared
// order, one per judged node for a per-node check (in node order), one otherwise; one per
// check where its node list is unavailable.
struct Slots {
  std::size_t first = 0;
  std::size_t count = 0;
  std::vector<std::size_t> check_first;  // offset of each check's cases from `first`
};

Slots SlotsOf(const SuiteRun& run, std::size_t first) {
  Slots slots{first, 0, {}};
  for (const auto& check : run.suite->checks) {
    slots.check_first.push_back(slots.count);
    slots.count += check.per_node && !run.unavailable ? run.nodes->size() : 1;
  }
  return slots;
}

// The phases of one evaluation; each case is judged into its place in `all`, so a fleet's
// 600,000 cases are never sorted, nor copied from one vector into another.
class Evaluation {
 public:
  Evaluation(const std::vector<const SuiteDefinition*>& suites, const SuiteContext& context) : context_(context) {
    for (const auto* suite : suites) runs_.push_back({suite, &context.raw.nodes, {}, {}, 0, ""});
  }

  std::vector<CheckResult> Run() {
    ReadOwnNodeLists();
    PlaceCases();
    JudgeClusterChecks();
    JudgeNodeByNode();
    JudgeComparisons();
    ReplaceDefects();
    return std::move(all_);
  }

 private:
  // Phase 1: the node lists of the suites that judge their own nodes (the controller's).
  void ReadOwnNodeLists() {
    for (auto& run : runs_) {
      if (!run.suite->judged_nodes) continue;
      run.nodes = &run.own_nodes;
      RunPart(run, [&] {
        JudgedNodes judged = run.suite->judged_nodes(context_);
        run.own_nodes = std::move(judged.nodes);
        run.unavailable = std::move(judged.unavailable);
      });
    }
  }

  void PlaceCases() {
    std::size_t total = 0;
    for (const auto& run : runs_) {
      slots_.push_back(SlotsOf(run, total));
      total += slots_.back().count;
    }
    all_.resize(total);
  }

  CheckResult& Slot(std::size_t s, std::size_t c, std::size_t n = 0) {
    return all_[slots_[s].first + slots_[s].check_first[c] + n];
  }

  // Phase 2: every cluster check, and every per-node check of a suite with its own nodes.
  // What a check read of every node is dropped before the next (unless the suite's cluster
  // checks share it): kept, every cluster check's reads would add up to the fleet's parsed facts
  // at once (some 30 KB a node). A comparison only waits here for the node-by-node pass.
  void JudgeClusterChecks() {
    for (std::size_t s = 0; s < runs_.size(); ++s) {
      SuiteRun& run = runs_[s];
      const auto& checks = run.suite->checks;
      if (run.unavailable) {
        for (std::size_t c = 0; c < checks.size(); ++c) Slot(s, c) = Named(*run.suite, checks[c], "", *run.unavailable);
        continue;
      }
      bool read_nodes = false;
      for (std::size_t c = 0; c < checks.size(); ++c) {
        if (checks[c].per_node) {
          if (!run.OwnNodes()) continue;
          for (std::size_t n = 0; n < run.nodes->size(); ++n) {
            RunPart(run, [&] { Slot(s, c, n) = JudgeCheck(*run.suite, checks[c], context_, (*run.nodes)[n]); });
          }
        } else if (checks[c].compare_nodes) {
          RunPart(run, [&] {
            if (auto why = NotApplicable(checks[c], context_, "")) {
              Slot(s, c) = Named(*run.suite, checks[c], "", Skipped(*why));
            } else {
              comparisons_.push_back({s, c, slots_[s].first + slots_[s].check_first[c], checks[c].compare_nodes()});
            }
          });
          continue;
        } else {
          RunPart(run, [&] { Slot(s, c) = JudgeCheck(*run.suite, checks[c], context_, ""); });
        }
        read_nodes = true;
        if (!run.suite->cluster_checks_share_node_facts) DropEveryNodesFacts(context_);
      }
      if (read_nodes) DropEveryNodesFacts(context_);
    }
  }

  // Phase 3: the run's nodes one at a time: every per-node check of every suite that judges
  // the run's nodes, and every comparison's reading. A node's parsed facts are shared by all the
  // suites that read them and dropped once the node is judged, with its raw outputs (nothing
  // reads them after evaluation), so a fleet's evaluation holds one node's facts at a time.
  void JudgeNodeByNode() {
    const std::vector<std::string>& nodes = context_.raw.nodes;
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      for (std::size_t s = 0; s < runs_.size(); ++s) {
        SuiteRun& run = runs_[s];
        if (run.OwnNodes()) continue;
        const auto& checks = run.suite->checks;
        for (std::size_t c = 0; c < checks.size(); ++c) {
          if (!checks[c].per_node) continue;
          RunPart(run, [&] { Slot(s, c, n) = JudgeCheck(*run.suite, checks[c], context_, nodes[n]); });
        }
      }
      for (auto& pending : comparisons_) {
        RunPart(runs_[pending.suite], [&] { pending.comparison->Read(context_, nodes[n]); });
      }
      context_.raw.ReleaseNode(nodes[n]);
    }
  }

  // Phase 4: each comparison, once every node is read.
  void JudgeComparisons() {
    for (auto& pending : comparisons_) {
      SuiteRun& run = runs_[pending.suite];
      RunPart(run, [&] {
        all_[pending.slot] =
            Named(*run.suite, run.suite->checks[pending.check], "", pending.comparison->Judge(context_));
      });
      pending.comparison.reset();  // its readings
    }
  }

  // Phase 5: a suite that threw has its internal errors in place of its cases (rare; the one
  // copy is then fine). Every suite's time is shared among its cases.
  void ReplaceDefects() {
    for (std::size_t s = runs_.size(); s-- > 0;) {
      const auto begin = all_.begin() + static_cast<std::ptrdiff_t>(slots_[s].first);
      const auto end = begin + static_cast<std::ptrdiff_t>(slots_[s].count);
      if (runs_[s].defect.empty()) {
        ShareTime(begin, end, runs_[s].elapsed_s);
        continue;
      }
      std::vector<CheckResult> errors = OneCaseEach(*runs_[s].suite, DefectJudgement(runs_[s]));
      ShareTime(errors.begin(), errors.end(), runs_[s].elapsed_s);
      const auto at = all_.erase(begin, end);
      all_.insert(at, std::make_move_iterator(errors.begin()), std::make_move_iterator(errors.end()));
    }
  }

  const SuiteContext& context_;
  std::vector<SuiteRun> runs_;
  std::vector<Slots> slots_;
  std::vector<CheckResult> all_;
  std::vector<PendingComparison> comparisons_;
};

}  // namespace

std::vector<CheckResult> EvaluateSuites(const std::vector<const SuiteDefinition*>& suites,
                                        const SuiteContext& context) {
  return Evaluation(suites, context).Run();
}

}  // namespace gpuconform
