#include "probes/cuda_p2p/cuda_p2p_parse.h"

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform::cuda_p2p {

namespace {

// from= and to= of a pair record: distinct known devices.
Result<GpuPair> ReadPair(const RecordLine& record, const P2pReport& report, const std::string& origin) {
  auto from = IntegerField(record, "from", origin);
  if (!from) return Error{from.error()};
  auto to = IntegerField(record, "to", origin);
  if (!to) return Error{to.error()};
  if (!*from || !*to) return ErrorAt(origin, record.line, "a " + record.kind + " line needs from= and to=");
  const long long a = **from;
  const long long b = **to;
  if (a < 0 || b < 0 || a >= report.device_count || b >= report.device_count || a == b) {
    return ErrorAt(origin, record.line,
                   "from=" + std::to_string(a) + " to=" + std::to_string(b) + " is not a pair of the " +
                       std::to_string(report.device_count) + " devices");
  }
  return GpuPair{static_cast<int>(a), static_cast<int>(b)};
}

}  // namespace

std::string P2pReport::GpuName(int index) const {
  const auto it = bus_ids.find(index);
  return "GPU " + std::to_string(index) + (it == bus_ids.end() ? "" : " (" + it->second + ")");
}

Result<P2pReport> ParseCudaP2p(const std::string& text, const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  P2pReport report;
  bool header = false;
  for (const auto& record : *records) {
    if (record.kind == "cuda") {
      if (header) return ErrorAt(origin, record.line, "a second cuda line");
      header = true;
      auto count = IntegerField(record, "device_count", origin);
      if (!count) return Error{count.error()};
      if (!*count || **count < 0 || **count > 4096) {
        return ErrorAt(origin, record.line, "the cuda line needs device_count=<n>");
      }
      report.device_count = static_cast<int>(**count);
      auto bytes = IntegerField(record, "buffer_bytes", origin);
      if (!bytes) return Error{bytes.error()};
      report.buffer_bytes = bytes->value_or(0);
      continue;
    }
    if (!header) {
      return ErrorAt(origin, record.line, "expected the 'cuda ...' line first (is this gpuconform's cuda-p2p.txt?)");
    }
    if (record.kind == "device") {
      auto index = IntegerField(record, "index", origin);
      if (!index) return Error{index.error()};
      if (!*index || **index < 0 || **index >= report.device_count) {
        return ErrorAt(origin, record.line, "device index must be below device_count");
      }
      report.bus_ids[static_cast<int>(**index)] = record.Get("bus_id");
    } else if (record.kind == "access") {
      auto pair = ReadPair(record, report, origin);
      if (!pair) return Error{pair.error()};
      const std::string peer = record.Get("peer");
      if (peer != "yes" && peer != "no") {
        return ErrorAt(origin, record.line, "peer must be yes or no, got " + QuoteForMessage(peer));
      }
      report.peer_access[*pair] = peer == "yes";
    } else if (record.kind == "bandwidth") {
      auto pair = ReadPair(record, report, origin);
      if (!pair) return Error{pair.error()};
      auto value = NumberField(record, "median_gb_per_s", origin);
      if (!value) return Error{value.error()};
      if (!*value || **value < 0) return ErrorAt(origin, record.line, "a bandwidth line needs median_gb_per_s=");
      const std::string mode = record.Get("mode");
      if (mode == "unidirectional") {
        report.unidirectional_gb_per_s[*pair] = **value;
      } else if (mode == "bidirectional") {
        report.bidirectional_gb_per_s[*pair] = **value;
      } else {
        return ErrorAt(origin, record.line,
                       "mode must be unidirectional or bidirectional, got " + QuoteForMessage(mode));
      }
    } else if (record.kind == "error") {
      auto pair = ReadPair(record, report, origin);
      if (!pair) return Error{pair.error()};
      report.errors[*pair] = record.Get("message");
    } else if (record.kind == "stopped") {
      report.stopped = record.Get("reason").empty() ? "(no reason given)" : record.Get("reason");
    } else {
      return ErrorAt(
          origin, record.line,
          "unknown record '" + record.kind + "' (expected cuda, device, access, bandwidth, error or stopped)");
    }
  }
  if (!header) {
    return ErrorAt(origin, std::max(1, static_cast<int>(SplitLines(text).size())),
                   "no 'cuda ...' line (is this gpuconform's cuda-p2p.txt?)");
  }
  return report;
}

}  // namespace gpuconform::cuda_p2p
