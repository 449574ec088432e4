#include "probes/nvidia_smi/topo_nvlink_parse.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "harness/util/line_source.h"
#include "harness/util/text_util.h"
#include "probes/nvidia_smi/gpu_heading.h"

namespace gpuconform::nvidia_smi {

namespace {



std::optional<int> WholeInt(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<double> WholeDouble(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// "GPU3", "NIC12": a prefix and a decimal index.
bool IsIndexedLabel(std::string_view word, std::string_view prefix) {
  return StartsWith(word, prefix) && word.size() > prefix.size() && WholeInt(word.substr(prefix.size())).has_value();
}

// Every cell value nvidia-smi topo -m prints between devices (SOC is the pre-2017 name of SYS).
bool IsConnectionCell(std::string_view cell) {
  static const std::set<std::string_view> kNames = {"X", "PIX", "PXB", "PHB", "NODE", "SYS", "SOC"};
  return kNames.count(cell) > 0 || NvlinkCount(std::string(cell)).has_value();
}

bool IsNicLabel(std::string_view label) { return !StartsWith(label, "GPU"); }

void AddUnique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

}  // namespace

std::optional<int> NvlinkCount(const std::string& cell) {
  if (!StartsWith(cell, "NV") || cell.size() < 3) return std::nullopt;
  auto count = WholeInt(std::string_view(cell).substr(2));
  if (!count || *count <= 0) return std::nullopt;
  return count;
}

std::string TopoMatrix::Between(const std::string& a, const std::string& b) const {
  auto cell = [this](const std::string& row, const std::string& column) -> std::string {
    const auto it = rows.find(row);
    const auto col = std::find(columns.begin(), columns.end(), column);
    if (it == rows.end() || col == columns.end()) return "";
    const auto index = static_cast<std::size_t>(col - columns.begin());
    return index < it->second.size() ? it->second[index] : "";
  };
  std::string value = cell(a, b);
  return value.empty() ? cell(b, a) : value;
}

std::string TopoMatrix::NicDisplayName(const std::string& nic) const {
  const auto it = nic_names.find(nic);
  return it == nic_names.end() ? nic : nic + " (" + it->second + ")";
}

Result<TopoMatrix> ParseTopoMatrix(const std::string& text, const std::string& origin) {
  // One pass in three parts: the header, the rows, the legend. The text outlives the source,
  // so the line that ends the rows is still valid when the legend reads it.
  TextLines lines(text);
  std::optional<Line> line;
  TopoMatrix matrix;
  // Prompts, comments and banners may precede the header; the header is the first line that
  // starts with GPU0 once the terminal's underline escapes are gone.
  int header_line = 0;
  int last_line = 1;  // where the search for the header ended
  while ((line = lines.Next())) {
    last_line = line->number;
    const std::string clean = StripAnsiEscapes(WithoutCarriageReturn(line->text));
    const auto words = SplitWords(clean);
    if (words.empty() || words[0] != "GPU0") continue;
    header_line = line->number;
    for (const auto word : words) {
      if (word == "CPU" || word == "NUMA") break;
      const std::string label(word);
      if (std::find(matrix.columns.begin(), matrix.columns.end(), label) != matrix.columns.end()) {
        return ErrorAt(origin, header_line, "column " + QuoteForMessage(label) + " appears twice in the header");
      }
      matrix.columns.push_back(label);
    }
    break;
  }
  if (header_line == 0) {
    return ErrorAt(origin, last_line,
              "no topology matrix: no header line starting with GPU0 (is this `nvidia-smi topo -m` output?)");
  }

  const std::set<std::string> column_set(matrix.columns.begin(), matrix.columns.end());
  int last_row_line = header_line;
  while ((line = lines.Next())) {
    const std::string clean = StripAnsiEscapes(WithoutCarriageReturn(line->text));
    const auto words = SplitWords(clean);
    if (words.empty()) break;
    const std::string label(words[0]);
    const bool is_row = column_set.count(label) > 0 || IsIndexedLabel(label, "GPU") || IsIndexedLabel(label, "NIC");
    if (!is_row) break;
    if (matrix.rows.count(label)) return ErrorAt(origin, line->number, "row " + label + " appears twice");
    if (words.size() - 1 < matrix.columns.size()) {
      return ErrorAt(origin, line->number,
                "row " + label + " has " + std::to_string(words.size() - 1) + " cells, the header has " +
                    std::to_string(matrix.columns.size()) + " device columns (truncated or misaligned output?)");
    }
    std::vector<std::string> cells;
    for (std::size_t c = 0; c < matrix.columns.size(); ++c) {
      const std::string cell(words[c + 1]);
      if (!IsConnectionCell(cell)) {
        return ErrorAt(origin, line->number,
                  "row " + label + ", column " + matrix.columns[c] + ": " + QuoteForMessage(cell) +
                      " is not a connection type (X, NV#, PIX, PXB, PHB, NODE, SYS)");
      }
      // The diagonal is the alignment check: a shifted column shows up as a non-X self cell.
      if (matrix.columns[c] == label && cell != "X") {
        return ErrorAt(origin, line->number, "row " + label + " meets its own column with " + QuoteForMessage(cell) +
                                    ", expected X (misaligned columns?)");
      }
      cells.push_back(cell);
    }
    matrix.rows[label] = std::move(cells);
    AddUnique(IsNicLabel(label) ? matrix.nics : matrix.gpus, label);
    last_row_line = line->number;
  }

  for (const auto& column : matrix.columns) {
    if (!matrix.rows.count(column)) {
      return ErrorAt(origin, last_row_line,
                "the header lists " + column + " but no " + column + " row follows (truncated output?)");
    }
    if (IsNicLabel(column)) AddUnique(matrix.nics, column);
  }

  // The NIC Legend ("  NIC0: mlx5_0") names the NICs; it follows the matrix, from the line
  // that ended the rows on.
  for (; line; line = lines.Next()) {
    const auto words = SplitWords(WithoutCarriageReturn(line->text));
    if (words.size() != 2 || words[0].size() < 2 || words[0].back() != ':') continue;
    const std::string label(words[0].substr(0, words[0].size() - 1));
    if (IsIndexedLabel(label, "NIC")) matrix.nic_names[label] = std::string(words[1]);
  }
  return matrix;
}

Result<NvlinkStatus> ParseNvlinkStatus(const std::string& text, const std::string& origin) {
  NvlinkStatus status;
  NvlinkOutputLines lines(text);
  while (const auto line = lines.Next()) {
    const std::string_view trimmed = line->trimmed;

    if (const auto heading = ParseGpuHeading(trimmed)) {
      NvlinkGpu gpu;
      gpu.index = heading->index;
      gpu.name = heading->name;
      status.gpus.push_back(std::move(gpu));
      continue;
    }
    // Before the first GPU there may be a shell prompt or a comment; after it, every line
    // must be one nvidia-smi prints.
    if (status.gpus.empty()) continue;
    NvlinkGpu& gpu = status.gpus.back();

    if (trimmed == "..." || trimmed == "\xe2\x80\xa6") {
      if (status.elided_at_line == 0) status.elided_at_line = line->number;
      continue;
    }
    if (StartsWith(trimmed, "NVML:")) {
      gpu.all_inactive_message = std::string(trimmed);
      continue;
    }
    if (StartsWith(trimmed, "Link ")) {
      const auto colon = trimmed.find(':');
      const auto index = colon == std::string_view::npos ? std::nullopt : WholeInt(Trim(trimmed.substr(5, colon - 5)));
      if (!index) return ErrorAt(origin, line->number, "expected 'Link <n>: ...', got " + QuoteForMessage(trimmed));
      NvlinkLink link;
      link.index = *index;
      const std::string_view value = Trim(trimmed.substr(colon + 1));
      std::string lower(value);
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      if (Contains(lower, "inactive")) {
        link.active = false;
      } else {
        const auto words = SplitWords(value);
        const auto speed = words.size() == 2 && words[1] == "GB/s" ? WholeDouble(words[0]) : std::nullopt;
        if (!speed) return ErrorAt(origin, line->number, "expected '<speed> GB/s' or '<inactive>' for link " +
                                                std::to_string(link.index) + ", got " + QuoteForMessage(value));
        link.active = true;
        link.speed_gb_per_s = *speed;
      }
      gpu.links.push_back(link);
      continue;
    }
    return ErrorAt(origin, line->number, "unexpected line in nvidia-smi nvlink -s output: " + QuoteForMessage(trimmed));
  }
  if (status.gpus.empty()) {
    return ErrorAt(origin, lines.last_line(), "no 'GPU <n>: <name>' line (is this `nvidia-smi nvlink -s` output?)");
  }
  return status;
}

}  // namespace gpuconform::nvidia_smi
