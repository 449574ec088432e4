#include "probes/isolation/isolation_record.h"

#include <algorithm>
#include <cstdio>

#include "harness/util/hostlist.h"
#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/slurm/slurm_parse.h"

namespace gpuconform::isolation {

namespace {

std::string CommaList(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += ',';
    out += name;
  }
  return out;
}

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from <= text.size() && !text.empty()) {
    const std::size_t comma = text.find(',', from);
    out.push_back(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", value);
  return text;
}

Result<int> WholeField(const RecordLine& record, const std::string& key, const std::string& origin) {
  const auto value = IntegerField(record, key, origin);
  if (!value) return Error{value.error()};
  return static_cast<int>(value->value_or(0));
}

Result<Outcome> OutcomeField(const RecordLine& record, const std::string& key, const std::string& origin) {
  const auto outcome = ParseOutcome(record.Get(key));
  if (!outcome) {
    return ErrorAt(origin, record.line, key + " must be pass, fail or slow, got " + QuoteForMessage(record.Get(key)));
  }
  return *outcome;
}

std::vector<std::string> Sorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::string FormatPlan(const PlannerInput& input) {
  std::string out = FormatRecord("plan", {{"round_budget", std::to_string(input.round_budget)},
                                          {"split_rounds", std::to_string(input.split_rounds)},
                                          {"node_cap", std::to_string(input.node_cap)},
                                          {"first_split_groups", std::to_string(input.first_split_groups)},
                                          {"nodes", CommaList(input.nodes)}}) +
                    "\n";
  for (const SeedGroup& group : input.seed_groups) {
    out += FormatRecord("group", {{"name", group.name}, {"parent", group.parent}, {"nodes", CommaList(group.nodes)}}) +
           "\n";
  }
  if (!input.known_good.empty()) out += FormatRecord("known_good", {{"nodes", CommaList(input.known_good)}}) + "\n";
  return out;
}

std::string FormatMeasure(const IsolationMeasure& measure) {
  std::vector<std::pair<std::string, std::string>> fields = {{"collective", measure.collective},
                                                             {"size_bytes", std::to_string(measure.size_bytes)}};
  if (measure.floor_gb_per_s > 0) {
    fields.emplace_back("floor_gb_per_s", Number(measure.floor_gb_per_s));
    fields.emplace_back("floor_source", measure.floor_source);
  }
  return FormatRecord("measure", fields) + "\n";
}

std::string FormatStopped(const std::string& why) { return FormatRecord("stopped", {{"why", why}}) + "\n"; }

std::string FormatRound(const Round& round, const std::vector<TestResult>& results) {
  std::string out;
  for (std::size_t i = 0; i < round.tests.size() && i < results.size(); ++i) {
    const Test& test = round.tests[i];
    const TestResult& result = results[i];
    std::vector<std::pair<std::string, std::string>> fields = {
        {"round", std::to_string(round.number)},
        {"test", std::to_string(i)},
        {"purpose", test.purpose},
        {"size", std::to_string(test.nodes.size())},
        {"nodes", CompressHostlist(test.nodes)},
        {"busbw_gb_per_s", Number(result.busbw_gb_per_s)},
        {"outcome", OutcomeName(result.outcome)},
    };
    if (result.intra_node) fields.emplace_back("intra_node", OutcomeName(*result.intra_node));
    if (result.inter_node) fields.emplace_back("inter_node", OutcomeName(*result.inter_node));
    if (!result.why.empty()) fields.emplace_back("why", result.why);
    out += FormatRecord("test", fields) + "\n";
  }
  return out;
}

namespace {

Result<bool> ReadPlan(const RecordLine& line, const std::string& origin, PlannerInput& input) {
  for (const auto& [key, target] :
       {std::pair{"round_budget", &input.round_budget}, std::pair{"split_rounds", &input.split_rounds},
        std::pair{"node_cap", &input.node_cap}, std::pair{"first_split_groups", &input.first_split_groups}}) {
    const auto value = WholeField(line, key, origin);
    if (!value) return Error{value.error()};
    *target = *value;
  }
  const auto nodes = RequiredField(line, "nodes", origin);
  if (!nodes) return Error{nodes.error()};
  input.nodes = SplitCommas(*nodes);
  return true;
}

Result<RecordedTest> ReadTest(const RecordLine& line, const std::string& origin) {
  RecordedTest test;
  const auto round = WholeField(line, "round", origin);
  if (!round) return Error{round.error()};
  const auto index = WholeField(line, "test", origin);
  if (!index) return Error{index.error()};
  if (*round < 1 || *index < 0) return ErrorAt(origin, line.line, "round must be 1 or more and test 0 or more");
  test.round = *round;
  test.test = *index;
  test.planned.purpose = line.Get("purpose");
  const auto hostlist = RequiredField(line, "nodes", origin);
  if (!hostlist) return Error{hostlist.error()};
  const auto nodes = slurm::ExpandHostlist(*hostlist);
  if (!nodes) return ErrorAt(origin, line.line, nodes.error());
  test.planned.nodes = *nodes;
  const auto size = WholeField(line, "size", origin);
  if (!size) return Error{size.error()};
  if (*size != static_cast<int>(nodes->size())) {
    return ErrorAt(origin, line.line,
                   "size=" + std::to_string(*size) + " but nodes names " + std::to_string(nodes->size()));
  }
  const auto outcome = OutcomeField(line, "outcome", origin);
  if (!outcome) return Error{outcome.error()};
  test.result.outcome = *outcome;
  const auto busbw = NumberField(line, "busbw_gb_per_s", origin);
  if (!busbw) return Error{busbw.error()};
  test.result.busbw_gb_per_s = busbw->value_or(0);
  test.result.why = line.Get("why");
  for (const auto& [key, target] :
       {std::pair{"intra_node", &test.result.intra_node}, std::pair{"inter_node", &test.result.inter_node}}) {
    if (!line.Has(key)) continue;
    const auto scoped = OutcomeField(line, key, origin);
    if (!scoped) return Error{scoped.error()};
    *target = *scoped;
  }
  return test;
}

}  // namespace

Result<IsolationRecord> ParseIsolationRecords(const std::string& text, const std::string& origin) {
  const auto parsed = ParseRecordLines(text, origin);
  if (!parsed.ok()) return Error{parsed.error()};
  IsolationRecord record;
  int plans = 0;
  for (const RecordLine& line : *parsed) {
    if (line.kind == "plan") {
      if (++plans > 1) return ErrorAt(origin, line.line, "a second plan line");
      const auto read = ReadPlan(line, origin, record.input);
      if (!read) return Error{read.error()};
    } else if (line.kind == "group") {
      const auto name = RequiredField(line, "name", origin);
      if (!name) return Error{name.error()};
      record.input.seed_groups.push_back({*name, SplitCommas(line.Get("nodes")), line.Get("parent")});
    } else if (line.kind == "known_good") {
      record.input.known_good = SplitCommas(line.Get("nodes"));
    } else if (line.kind == "measure") {
      record.measure.collective = line.Get("collective");
      const auto size = IntegerField(line, "size_bytes", origin);
      if (!size) return Error{size.error()};
      record.measure.size_bytes = size->value_or(0);
      const auto floor = NumberField(line, "floor_gb_per_s", origin);
      if (!floor) return Error{floor.error()};
      record.measure.floor_gb_per_s = floor->value_or(0);
      record.measure.floor_source = line.Get("floor_source");
    } else if (line.kind == "stopped") {
      const auto why = RequiredField(line, "why", origin);
      if (!why) return Error{why.error()};
      record.stopped_why = *why;
    } else if (line.kind == "test") {
      auto test = ReadTest(line, origin);
      if (!test) return Error{test.error()};
      record.tests.push_back(std::move(test).value());
    } else {
      return ErrorAt(origin, line.line, "unknown record " + QuoteForMessage(line.kind) +
                                            " (an isolation record has plan, group, known_good, measure, test and stopped lines)");
    }
  }
  if (plans == 0 && !record.tests.empty()) return Error{origin + ": test lines without a plan line"};
  return record;
}

Result<std::vector<Finding>> Replay(const IsolationRecord& record, const std::string& origin) {
  Planner planner(record.input);
  std::size_t next = 0;
  while (!planner.Done()) {
    const Round round = planner.NextRound();
    if (round.tests.empty()) break;
    std::vector<TestResult> results;
    for (std::size_t i = 0; i < round.tests.size(); ++i, ++next) {
      if (next >= record.tests.size()) {
        if (i == 0) {
          planner.Stop(record.stopped_why.empty() ? "the record ends after round " + std::to_string(round.number - 1)
                                                  : record.stopped_why);
          return planner.Findings();
        }
        return Error{origin + ": round " + std::to_string(round.number) + " ends after " + std::to_string(i) +
                     " of its " + std::to_string(round.tests.size()) + " tests"};
      }
      const RecordedTest& recorded = record.tests[next];
      if (recorded.round != round.number || recorded.test != static_cast<int>(i) ||
          Sorted(recorded.planned.nodes) != Sorted(round.tests[i].nodes)) {
        return Error{origin + ": test " + std::to_string(recorded.round) + "." + std::to_string(recorded.test) +
                     " is not the planner's test " + std::to_string(round.number) + "." + std::to_string(i) + " (" +
                     ShortHostlist(round.tests[i].nodes) + ")"};
      }
      results.push_back(recorded.result);
    }
    planner.Record(results);
  }
  if (next != record.tests.size()) {
    return Error{origin + ": " + std::to_string(record.tests.size() - next) + " test lines after the search ended"};
  }
  return planner.Findings();
}

}  // namespace gpuconform::isolation
