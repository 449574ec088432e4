#include "probes/perftest/perftest_parse.h"

#include <charconv>
#include <cmath>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"
#include "probes/perftest/perftest_errors.h"

namespace gpuconform::perftest {

namespace {

std::optional<double> FiniteNumber(std::string_view word) {
  double value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (word.empty() || error != std::errc() || end != word.data() + word.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

std::optional<long long> Count(std::string_view word) {
  long long value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (word.empty() || error != std::errc() || end != word.data() + word.size() || value < 0) return std::nullopt;
  return value;
}

// "1024[B]" -> 1024; "16" -> 16.
std::optional<int> LeadingInt(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

bool IsRule(std::string_view line) {
  return line.size() >= 10 && line.find_first_not_of('-') == std::string_view::npos;
}

// " Dual-port       : OFF\t\tDevice         : mlx5_1" -> {Dual-port: OFF, Device: mlx5_1}. Tabs
// separate the pairs, but one key has a tab of its own ("rdma_cm QPs\t : ON"), so a piece
// without a colon joins the next.
std::vector<std::pair<std::string, std::string>> HeaderPairs(std::string_view line) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::string piece;
  std::size_t start = 0;
  while (start <= line.size()) {
    const std::size_t tab = line.find('\t', start);
    piece += std::string(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    start = tab == std::string_view::npos ? line.size() + 1 : tab + 1;
    const std::size_t colon = piece.find(':');
    if (colon == std::string::npos) {
      if (!Trim(piece).empty()) piece += ' ';
      continue;
    }
    const std::string key(Trim(std::string_view(piece).substr(0, colon)));
    if (!key.empty()) pairs.emplace_back(key, std::string(Trim(std::string_view(piece).substr(colon + 1))));
    piece.clear();
  }
  return pairs;
}

class Reader {
 public:
  explicit Reader(const std::string& origin) : origin_(origin) { report_.origin = origin; }

  Result<PerftestReport> Read(const std::string& text) {
    TextLines lines(text);
    while (const auto line = lines.Next()) {
      line_number_ = line->number;
      if (auto problem = ReadLine(Trim(line->text)); !problem.empty()) return ErrorAt(origin_, line_number_, problem);
    }
    if (report_.test.empty() && report_.errors.empty()) {
      return ErrorAt(origin_, 1, "not perftest output: no \"... BW Test\" or \"... Latency Test\" title and no perftest error");
    }
    if (!peak_measured_) {
      for (auto& row : report_.bandwidth) row.bw_peak_gbit_per_s.reset();
    }
    return report_;
  }

 private:
  enum class Part { kPreamble, kHeader, kAddresses, kResults, kAfter };

  std::string ReadLine(std::string_view line) {
    if (line.empty()) return "";
    if (auto kind = ClassifyPerftestLine(line)) {
      report_.errors.push_back({*kind, std::string(line), line_number_});
      return "";
    }
    if (StartsWith(line, "WARNING: BW peak won't be measured")) {
      peak_measured_ = false;
      return "";
    }
    if (part_ == Part::kPreamble) return ReadPreamble(line);
    if (part_ == Part::kHeader) {
      if (IsRule(line)) {
        part_ = Part::kAddresses;
        return "";
      }
      for (auto& [key, value] : HeaderPairs(line)) AddHeader(key, value);
      return "";
    }
    if (part_ == Part::kAddresses) {
      if (StartsWith(line, "#bytes")) return ReadColumns(line);
      return "";  // "local address: LID ...", "GID: ...", rules
    }
    if (part_ == Part::kResults) {
      if (IsRule(line)) {
        report_.complete = true;
        part_ = Part::kAfter;
        return "";
      }
      return ReadRow(line);
    }
    return "";  // after the table: "deallocating GPU buffer ...", the next prompt
  }

  std::string ReadPreamble(std::string_view line) {
    const auto words = SplitWords(line);
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::string_view word = words[i].substr(words[i].rfind('/') == std::string_view::npos ? 0 : words[i].rfind('/') + 1);
      if (StartsWith(word, "ib_") && (word.ends_with("_bw") || word.ends_with("_lat"))) {
        ReadCommand(line, std::vector<std::string_view>(words.begin() + static_cast<long>(i) + 1, words.end()));
        return "";
      }
    }
    if (StartsWith(line, "Picking device No. ") || StartsWith(line, "Picking GPU number ")) {
      report_.cuda_device = LeadingInt(line.substr(line.rfind(' ') + 1));
    } else if (const std::size_t name = line.find("device name = ["); name != std::string_view::npos) {
      const std::string_view rest = line.substr(name + 15);
      report_.cuda_device_name = std::string(rest.substr(0, rest.rfind(']')));
    } else if (StartsWith(line, "using DMA-BUF")) {
      report_.cuda_dmabuf = true;
    } else if (line.ends_with(" Test") && (Contains(line, " BW ") || Contains(line, " Latency "))) {
      report_.test = std::string(line);
      report_.is_latency = Contains(line, " Latency ");
      part_ = Part::kHeader;
    }
    return "";
  }

  void ReadCommand(std::string_view line, const std::vector<std::string_view>& args) {
    report_.command = std::string(line);
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string_view arg = args[i];
      const std::string_view next = i + 1 < args.size() ? args[i + 1] : std::string_view();
      if (arg == "-d" || arg == "--ib-dev") report_.device = std::string(next);
      if (StartsWith(arg, "--ib-dev=")) report_.device = std::string(arg.substr(9));
      if (arg == "-i" || arg == "--ib-port") report_.port = LeadingInt(next);
      if (StartsWith(arg, "--ib-port=")) report_.port = LeadingInt(arg.substr(10));
      if (StartsWith(arg, "--use_cuda=")) report_.cuda_device = LeadingInt(arg.substr(11));
      if (arg == "--use_cuda") report_.cuda_device = LeadingInt(next);
      if (arg == "--use_cuda_dmabuf") report_.cuda_dmabuf = true;
    }
  }

  void AddHeader(const std::string& key, const std::string& value) {
    if (StartsWith(key, "WARNING")) return;
    report_.header[key] = value;
    if (key == "Device") report_.device = value;
    if (key == "Link type") report_.link_type = value;
    if (key == "Transport type") report_.transport_type = value;
    if (key == "Connection type") report_.connection_type = value;
    if (key == "Mtu") report_.mtu_bytes = LeadingInt(value);
    if (key == "Number of qps") report_.qp_count = LeadingInt(value);
    if (key == "GID index") report_.gid_index = LeadingInt(value);
    if (key == "TX depth") report_.is_client = true;
  }

  std::string ReadColumns(std::string_view line) {
    if (Contains(line, "[cycles]")) return "latencies in cycles (--report_cycles): no microseconds to judge";
    part_ = Part::kResults;
    has_sl_column_ = Contains(line, "#sl");
    duration_latency_ = report_.is_latency && !Contains(line, "t_min");
    if (report_.is_latency) return Contains(line, "[usec]") ? "" : "a latency table without [usec] columns";
    if (Contains(line, "[Gb/sec]")) {
      report_.reported_gbits = true;
    } else if (!Contains(line, "[MB/sec]") && !Contains(line, "[MiB/sec]")) {
      return "a bandwidth table in a unit I do not know: " + QuoteForMessage(line);
    }
    return "";
  }

  std::string ReadRow(std::string_view line) {
    auto words = SplitWords(line);
    if (has_sl_column_ && words.size() > 1) words.erase(words.begin() + 1);
    std::vector<double> numbers;
    for (std::size_t i = 2; i < words.size(); ++i) {
      const auto number = FiniteNumber(words[i]);
      if (!number) return "not a number: " + QuoteForMessage(words[i]);
      numbers.push_back(*number);
    }
    const auto size = words.empty() ? std::nullopt : Count(words[0]);
    const auto iterations = words.size() < 2 ? std::nullopt : Count(words[1]);
    if (!size || !iterations) return "a result row without its size and iterations: " + QuoteForMessage(line);
    if (report_.is_latency) {
      LatencyRow row;
      row.size_bytes = *size;
      row.iterations = *iterations;
      if (duration_latency_) {
        if (numbers.size() < 2) return "a latency row needs t_avg and tps: " + QuoteForMessage(line);
        row.t_avg_us = numbers[0];
        row.tps_average = numbers[1];
      } else {
        if (numbers.size() < 7) return "a latency row needs 7 values after #iterations: " + QuoteForMessage(line);
        row.t_min_us = numbers[0];
        row.t_max_us = numbers[1];
        row.t_typical_us = numbers[2];
        row.t_avg_us = numbers[3];
        row.t_stdev_us = numbers[4];
        row.t_p99_us = numbers[5];
        row.t_p99_9_us = numbers[6];
      }
      report_.latency.push_back(row);
      return "";
    }
    if (numbers.size() < 3) return "a bandwidth row needs BW peak, BW average and MsgRate: " + QuoteForMessage(line);
    const double scale = report_.reported_gbits ? 1.0 : MbytesPerSecToGbitPerSec(1.0);
    report_.bandwidth.push_back({*size, *iterations, numbers[0] * scale, numbers[1] * scale, numbers[2]});
    return "";
  }

  std::string origin_;
  PerftestReport report_;
  Part part_ = Part::kPreamble;
  int line_number_ = 0;
  bool peak_measured_ = true;
  bool has_sl_column_ = false;
  bool duration_latency_ = false;
};

}  // namespace

double MbytesPerSecToGbitPerSec(double mbytes_per_s) { return mbytes_per_s * 1048576.0 * 8.0 / 1e9; }

const PerftestError* PerftestReport::FirstError(PerftestErrorKind kind) const {
  for (const auto& error : errors) {
    if (error.kind == kind) return &error;
  }
  return nullptr;
}

Result<PerftestReport> ParsePerftest(const std::string& text, const std::string& origin) {
  return Reader(origin).Read(text);
}

}  // namespace gpuconform::perftest
