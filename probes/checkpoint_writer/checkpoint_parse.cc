#include "probes/checkpoint_writer/checkpoint_parse.h"

#include "harness/util/text_util.h"

namespace gpuconform::checkpoint {

std::vector<const RecordLine*> NodeCheckpointReport::All(const std::string& name) const {
  std::vector<const RecordLine*> found;
  for (const auto& record : records) {
    if (record.kind == name) found.push_back(&record);
  }
  return found;
}

const RecordLine* NodeCheckpointReport::First(const std::string& name) const {
  for (const auto& record : records) {
    if (record.kind == name) return &record;
  }
  return nullptr;
}

Result<NodeCheckpointReport> ParseCheckpointReport(const std::string& text, const std::string& node,
                                                   const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  if (records->empty()) return ErrorAt(origin, 1, "empty Checkpoint probe output");
  const RecordLine& first = records->front();
  if (first.kind != "checkpoint-probe" || first.Get("version") != "1") {
    return ErrorAt(origin, first.line,
                   "not a Checkpoint probe output (expected 'checkpoint-probe version=1' first), got a '" +
                       first.kind + "' record");
  }
  NodeCheckpointReport report;
  report.node = node;
  report.origin = origin;
  report.records = std::move(records.value());
  return report;
}

}  // namespace gpuconform::checkpoint
