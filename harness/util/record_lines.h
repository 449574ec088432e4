// Record lines: the text format of the snapshot files that gpuconform's own probes
// write (nvml.txt, cuda-p2p.txt, ibverbs.txt, nic-pcie.txt, checkpoint.txt, fabric-reach.txt):
//   <kind> key=value key="a value with spaces" ...
// Blank lines and lines starting with '#' are comments. Keys are [a-z0-9_]; a bare value has
// no spaces or quotes; a quoted value has no '"'. Contract: FormatRecord writes what
// ParseRecordLines reads back; the parser is pure, names origin:line in every error, and
// accepts no control characters, so garbage is an error and never a crash.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/util/result.h"

namespace gpuconform {

struct RecordLine {
  int line = 0;
  std::string kind;  // "gpu", "link", "port", ...
  // (key, value unquoted), sorted by key, each key once. A sorted vector, not a map: a record
  // has a dozen fields, and a fleet's snapshot parses millions of records, each map node its
  // own allocation and each lookup a walk through them.
  std::vector<std::pair<std::string, std::string>> fields;

  bool Has(std::string_view key) const { return Find(key) != nullptr; }
  std::string Get(std::string_view key) const;  // empty when absent
  const std::string* Find(std::string_view key) const;  // the value, or nullptr when absent
};

Result<std::vector<RecordLine>> ParseRecordLines(const std::string& text, const std::string& origin);

// "<kind> k=v ..." with each value quoted where it must be; '"' and control characters in a
// value become '\''/' ' so that any string a library returns can be written.
std::string FormatRecord(const std::string& kind, const std::vector<std::pair<std::string, std::string>>& fields);

// Whole-string numbers: "16" -> 16, "16x" -> nullopt.
std::optional<long long> WholeInteger(std::string_view text);
// A counter's value: decimal digits only (spaces around it trimmed) up to 2^64-1, as the kernel
// and the tools print counters; a sign, "N/A" or an overflow -> nullopt.
std::optional<std::uint64_t> WholeCount(std::string_view text);
std::optional<double> WholeNumber(std::string_view text);

// The field as a number, or an error naming origin:line, the key and the value; absent keys
// are nullopt (a probe leaves out what a library did not report).
Result<std::optional<long long>> IntegerField(const RecordLine& record, const std::string& key,
                                              const std::string& origin);
Result<std::optional<double>> NumberField(const RecordLine& record, const std::string& key, const std::string& origin);
// The field, which must be present and non-empty.
Result<std::string> RequiredField(const RecordLine& record, const std::string& key, const std::string& origin);

}  // namespace gpuconform
