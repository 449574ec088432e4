#include "reports/results_merge.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace gpuconform {

namespace {

std::string RunLabel(const MergeInput& input) {
  return input.origin + " (run " + input.document.record.run_id.substr(0, 8) + ")";
}

std::string JoinUnique(const std::vector<std::string>& values) {
  std::vector<std::string> unique;
  for (const auto& value : values) {
    if (!value.empty() && std::find(unique.begin(), unique.end(), value) == unique.end()) unique.push_back(value);
  }
  std::string joined;
  for (const auto& value : unique) joined += (joined.empty() ? "" : ",") + value;
  return joined;
}

RunRecord MergedRun(const std::vector<MergeInput>& inputs, const std::string& run_id,
                    const std::set<std::string>& judged) {
  RunRecord run;
  run.run_id = run_id;
  run.mode = "merge of " + std::to_string(inputs.size()) + " runs";
  std::vector<std::string> versions, profiles, filters, jobs;
  std::set<std::string> outside;
  for (const auto& input : inputs) {  // oldest first: later tags and hosts win
    const RunRecord& part = input.document.record;
    if (run.started_utc.empty() || part.started_utc < run.started_utc) run.started_utc = part.started_utc;
    run.ended_utc = std::max(run.ended_utc, part.ended_utc);
    run.hostname = part.hostname;
    versions.push_back(part.gpuconform_version);
    profiles.push_back(part.profile);
    filters.push_back(part.filter);
    if (part.slurm_job_id) jobs.push_back(*part.slurm_job_id);
    for (const auto& [key, value] : part.tags) {
      auto it = std::find_if(run.tags.begin(), run.tags.end(), [&](const auto& tag) { return tag.first == key; });
      if (it == run.tags.end()) {
        run.tags.emplace_back(key, value);
      } else {
        it->second = value;
      }
    }
    for (const auto& node : part.not_covered) {
      if (!judged.count(node)) outside.insert(node);
    }
  }
  run.gpuconform_version = JoinUnique(versions);
  run.profile = JoinUnique(profiles);
  run.filter = JoinUnique(filters);
  if (!jobs.empty()) run.slurm_job_id = JoinUnique(jobs);
  run.nodes.assign(judged.begin(), judged.end());
  run.not_covered.assign(outside.begin(), outside.end());
  return run;
}

}  // namespace

MergedResults MergeResults(std::vector<MergeInput> inputs, const std::string& run_id) {
  std::stable_sort(inputs.begin(), inputs.end(), [](const MergeInput& a, const MergeInput& b) {
    return a.document.record.ended_utc < b.document.record.ended_utc;
  });
  MergedResults merged;
  // Each node's case comes from the newest run that has the case and judged the node; a case no
  // such run has (the controller's view of a node outside every run) from the newest run that
  // has it. So a later run with another --filter replaces only the cases it has, and a run's
  // error about a node it did not judge never replaces the verdict of the run that judged it.
  std::vector<std::set<std::string>> judged_by(inputs.size());
  std::set<std::string> judged;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    judged_by[i].insert(inputs[i].document.record.nodes.begin(), inputs[i].document.record.nodes.end());
    judged.insert(inputs[i].document.record.nodes.begin(), inputs[i].document.record.nodes.end());
  }
  std::map<std::string, std::size_t> source_of;  // a node case's test name -> the run it comes from
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (const auto& result : inputs[i].document.cases) {
      if (result.node.empty()) continue;
      const auto [it, is_new] = source_of.emplace(result.TestName(), i);
      if (!is_new && judged_by[i].count(result.node) >= judged_by[it->second].count(result.node)) it->second = i;
    }
  }
  std::map<std::string, std::size_t> cluster_case;  // test name -> index in merged results
  std::vector<CheckResult>& results = merged.document.cases;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (const auto& result : inputs[i].document.cases) {
      if (!result.node.empty()) {
        if (source_of[result.TestName()] == i) results.push_back(result);
        continue;
      }
      const auto [it, is_new] = cluster_case.emplace(result.TestName(), results.size());
      if (is_new) {
        results.push_back(result);
        continue;
      }
      CheckResult& kept = results[it->second];
      std::vector<Finding> findings = kept.findings;
      if (AttentionRank(result.verdict) < AttentionRank(kept.verdict)) {  // the one an operator must act on
        findings = result.findings;
        for (auto& finding : kept.findings) findings.push_back(finding);
        kept = result;
      } else {
        for (const auto& finding : result.findings) findings.push_back(finding);
      }
      kept.findings.clear();
      for (auto& finding : findings) {
        const bool seen = std::any_of(kept.findings.begin(), kept.findings.end(), [&](const Finding& other) {
          return other.message == finding.message && other.entity == finding.entity;
        });
        if (!seen) kept.findings.push_back(std::move(finding));
      }
    }
  }
  // Conflicts: another run's verdict on a case that was kept from a different run.
  std::map<std::string, const CheckResult*> kept_by_name;
  for (const auto& result : results) {
    if (!result.node.empty()) kept_by_name[result.TestName()] = &result;
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (const auto& result : inputs[i].document.cases) {
      if (result.node.empty()) continue;
      const std::size_t source = source_of[result.TestName()];
      if (source == i) continue;
      const auto kept = kept_by_name.find(result.TestName());
      if (kept == kept_by_name.end() || kept->second->verdict == result.verdict) continue;
      merged.conflicts.push_back({result.TestName(), VerdictName(result.verdict), RunLabel(inputs[i]),
                                  VerdictName(kept->second->verdict), RunLabel(inputs[source])});
    }
  }
  std::stable_sort(results.begin(), results.end(), [](const CheckResult& a, const CheckResult& b) {
    return std::tie(a.suite, a.check, a.node) < std::tie(b.suite, b.check, b.node);
  });
  merged.document.record = MergedRun(inputs, run_id, judged);
  return merged;
}

std::string RenderConflicts(const std::vector<MergeConflict>& conflicts) {
  std::string text;
  for (const auto& conflict : conflicts) {
    text += "  " + conflict.test_name + ": " + conflict.other_verdict + " in " + conflict.other_run + ", " +
            conflict.kept_verdict + " in " + conflict.kept_run + ", which is kept\n";
  }
  return text;
}

}  // namespace gpuconform
