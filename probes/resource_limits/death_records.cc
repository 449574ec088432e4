#include "probes/resource_limits/death_records.h"

#include <optional>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"
#include "probes/resource_limits/node_limits.h"

namespace gpuconform::resource_limits {

namespace {

constexpr char kDiedRecord[] = "worker-died";
constexpr char kSaidRecord[] = "worker-said";
constexpr std::size_t kLinesPerNode = 24;
constexpr std::size_t kLongestLine = 300;

std::optional<int> AsInt(std::optional<long long> value) {
  if (!value) return std::nullopt;
  return static_cast<int>(*value);
}

}  // namespace

void KeepLine(WorkerDeath& death, std::string_view line) {
  if (death.text.size() >= kLinesPerNode) return;
  death.text.emplace_back(line.substr(0, kLongestLine));
}

std::string DeathLines(const std::vector<NodeDeath>& deaths) {
  std::string text;
  for (const auto& [node, death] : deaths) {
    std::vector<std::pair<std::string, std::string>> fields = {{"node", node}};
    if (death.exit_code) fields.emplace_back("exit", std::to_string(*death.exit_code));
    if (death.signal) fields.emplace_back("signal", std::to_string(*death.signal));
    if (death.killed_by_deadline) fields.emplace_back("deadline", "1");
    text += "# " + FormatRecord(kDiedRecord, fields) + "\n";
    for (const auto& line : death.text) text += "# " + FormatRecord(kSaidRecord, {{"node", node}, {"text", line}}) + "\n";
  }
  return text;
}

std::string NodeLimitsLine(const std::string& node, const NodeLimits& limits) {
  return "# " + LimitsRecordLine(limits) + " " + FormatRecord("", {{"node", node}}).substr(1) + "\n";
}

DeathRecords ParseDeathLines(const std::string& text) {
  DeathRecords records;
  for (const auto line : SplitLines(text)) {
    if (!line.starts_with("# ")) continue;
    const auto words = SplitWords(line.substr(2));
    if (words.empty() || (words[0] != kLimitsRecord && words[0] != kDiedRecord && words[0] != kSaidRecord)) continue;
    const auto parsed = ParseRecordLines(std::string(line.substr(2)), "a worker's death record");
    if (!parsed || parsed->size() != 1 || parsed->front().Get("node").empty()) continue;
    const RecordLine& record = parsed->front();
    const std::string node = record.Get("node");
    if (record.kind == kLimitsRecord) {
      records.limits[node] = LimitsFromRecord(record);
    } else if (record.kind == kDiedRecord) {
      WorkerDeath& death = records.deaths[node];
      const auto number = [&](const char* key) -> std::optional<int> {
        const std::string* value = record.Find(key);
        if (!value) return std::nullopt;
        return AsInt(WholeInteger(*value));
      };
      death.exit_code = number("exit");
      death.signal = number("signal");
      death.killed_by_deadline = record.Get("deadline") == "1";
    } else if (auto found = records.deaths.find(node); found != records.deaths.end()) {
      found->second.text.push_back(record.Get("text"));
    }
  }
  return records;
}

std::vector<ClassifiedDeath> ClassifyRecordedDeaths(const DeathRecords& records, const std::string& worker) {
  std::vector<ClassifiedDeath> classified;
  for (const auto& [node, death] : records.deaths) {
    const auto limits = records.limits.find(node);
    const auto exhaustion = ClassifyDeath(death, limits == records.limits.end() ? NodeLimits{} : limits->second);
    if (exhaustion) classified.push_back({node, worker + " on " + node, *exhaustion, ""});
  }
  return classified;
}

}  // namespace gpuconform::resource_limits
