#include "probes/fabric_reach/fabric_reach_parse.h"

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform::fabric_reach {

Result<NodeReach> ParseReach(const std::string& text, const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  if (records->empty()) return ErrorAt(origin, 1, "empty fabric reachability output");
  const RecordLine& header = records->front();
  if (header.kind != "fabric-reach" || header.Get("version") != "1") {
    return ErrorAt(origin, header.line,
                   "not a fabric reachability output (expected 'fabric-reach version=1'), got a '" + header.kind +
                       "' record");
  }
  NodeReach reach{header.Get("node"), header.Get("ifname"), header.Get("addr"), header.Get("skipped"),
                  header.Get("problem"), {}};
  for (std::size_t i = 1; i < records->size(); ++i) {
    const RecordLine& record = (*records)[i];
    if (record.kind != "reach") return ErrorAt(origin, record.line, "unknown record '" + record.kind + "'");
    auto to = RequiredField(record, "to", origin);
    if (!to) return Error{to.error()};
    auto ms = NumberField(record, "ms", origin);
    if (!ms) return Error{ms.error()};
    reach.attempts.push_back(
        {*to, record.Get("addr"), record.Get("result") == "ok", ms->value_or(0), record.Get("error")});
  }
  return reach;
}

}  // namespace gpuconform::fabric_reach
