#include "probes/perftest/rail_pairs_parse.h"

#include <cmath>

#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform::perftest {

namespace {

Result<RailPair> ReadPair(const RecordLine& record, const std::string& origin) {
  RailPair pair;
  pair.line = record.line;
  auto pass = IntegerField(record, "pass", origin);
  if (!pass) return Error{pass.error()};
  if (!*pass || (**pass != 1 && **pass != 2)) return ErrorAt(origin, record.line, "a pair needs pass=1 or pass=2");
  pair.pass = static_cast<int>(**pass);
  pair.client = record.Get("client");
  pair.server = record.Get("server");
  pair.hca = record.Get("hca");
  if (pair.client.empty() || pair.server.empty() || pair.hca.empty()) {
    return ErrorAt(origin, record.line, "a pair needs client=, server= and hca=");
  }
  if (pair.client == pair.server) {
    return ErrorAt(origin, record.line, "a pair needs two nodes, got " + QuoteForMessage(pair.client) + " twice");
  }
  auto port = IntegerField(record, "port", origin);
  if (!port) return Error{port.error()};
  if (!*port || **port < 1 || **port > 255) return ErrorAt(origin, record.line, "a pair needs port=<1..255>");
  pair.port = static_cast<int>(**port);
  auto bandwidth = NumberField(record, "bw_average_gbit_per_s", origin);
  if (!bandwidth) return Error{bandwidth.error()};
  pair.bw_average_gbit_per_s = *bandwidth;
  pair.error = record.Get("error");
  if (pair.bw_average_gbit_per_s.has_value() == !pair.error.empty()) {
    return ErrorAt(origin, record.line, "a pair needs either bw_average_gbit_per_s= or error=, not both or neither");
  }
  if (pair.bw_average_gbit_per_s && (!std::isfinite(*pair.bw_average_gbit_per_s) || *pair.bw_average_gbit_per_s < 0)) {
    return ErrorAt(origin, record.line, "bw_average_gbit_per_s must be a non-negative number");
  }
  auto latency = NumberField(record, "lat_average_us", origin);
  if (!latency) return Error{latency.error()};
  pair.lat_average_us = *latency;
  pair.lat_error = record.Get("lat_error");
  if (pair.lat_average_us && !pair.lat_error.empty()) {
    return ErrorAt(origin, record.line, "a pair carries lat_average_us= or lat_error=, not both");
  }
  if (pair.lat_average_us && (!std::isfinite(*pair.lat_average_us) || *pair.lat_average_us <= 0)) {
    return ErrorAt(origin, record.line, "lat_average_us must be a positive number");
  }
  return pair;
}

Result<UnpairedNode> ReadUnpaired(const RecordLine& record, const std::string& origin) {
  UnpairedNode node{record.Get("node"), record.Get("status"), {}, record.Get("why"), record.line};
  if (node.node.empty()) return ErrorAt(origin, record.line, "an unpaired line needs node=");
  if (node.status != "missing" && node.status != "failed") {
    return ErrorAt(origin, record.line, "an unpaired line needs status=missing or status=failed");
  }
  for (std::string& rail : SplitOn(record.Get("rails"), ',')) {
    if (!rail.empty()) node.rails.push_back(std::move(rail));
  }
  return node;
}

}  // namespace

Result<RailPairsFile> ParseRailPairs(const std::string& text, const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  RailPairsFile file;
  for (const auto& record : *records) {
    if (record.kind == "unpaired") {
      auto node = ReadUnpaired(record, origin);
      if (!node) return Error{node.error()};
      file.unpaired.push_back(std::move(node).value());
      continue;
    }
    if (record.kind != "pair") {
      return ErrorAt(origin, record.line, "unknown record '" + record.kind + "' (expected pair or unpaired)");
    }
    auto pair = ReadPair(record, origin);
    if (!pair) return Error{pair.error()};
    file.pairs.push_back(std::move(pair).value());
  }
  if (file.pairs.empty()) return ErrorAt(origin, 1, "no pair lines: the pairing pass measured nothing");
  return file;
}

}  // namespace gpuconform::perftest
