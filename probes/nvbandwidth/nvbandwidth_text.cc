// nvbandwidth's text output (output.cpp, inline_common.h's PeerValueMatrix printer): a
// "Running <name>." line opens each testcase, its description and matrix follow, then a blank
// line and "SUM <name> <value>" (or "&&&& PERF <name> <value><unit>" for formatted cases).
#include "harness/util/line_source.h"
#include "harness/util/text_util.h"
#include "probes/nvbandwidth/nvbandwidth_formats.h"

namespace gpuconform::nvbandwidth {

namespace {

bool IsFatalError(std::string_view line) {
  return (StartsWith(line, "[CUDA_ERROR") || StartsWith(line, "[cuda") || StartsWith(line, "NVML_ERROR") ||
          StartsWith(line, "ASSERT in expression") || (StartsWith(line, "[") && Contains(line, "] ") &&
                                                       Contains(line, " in expression "))) ||
         StartsWith(line, "ERROR: Invalid Arguments") ||
         StartsWith(line, "You cannot specify both testcase and testcasePrefix") ||
         StartsWith(line, "Specified list of testcase prefixes did not match");
}

class TextReader {
 public:
  explicit TextReader(const std::string& origin) : origin_(origin) {
    report_.origin = origin;
    report_.format = "text";
  }

  Result<NvbandwidthReport> Read(const std::string& text) {
    TextLines lines(text);
    while (const auto line = lines.Next()) {
      if (auto problem = ReadLine(Trim(line->text)); !problem.empty()) return ErrorAt(origin_, line->number, problem);
    }
    if (report_.testcases.empty() && report_.errors.empty() && report_.version.empty()) {
      return ErrorAt(origin_, 1, "not nvbandwidth output: no \"Running <testcase>.\" line, version or nvbandwidth error");
    }
    return report_;
  }

 private:
  enum class Expect { kAnything, kDescription, kColumns, kRows };

  std::string ReadLine(std::string_view line) {
    if (line.empty()) {
      if (expect_ == Expect::kRows) expect_ = Expect::kAnything;
      return "";
    }
    if (IsFatalError(line)) {
      report_.errors.push_back(FatalError(line));
      return "";
    }
    if (StartsWith(line, "Running ") && line.ends_with(".")) {
      Testcase testcase;
      testcase.name = std::string(line.substr(8, line.size() - 9));
      testcase.status = "Running";
      report_.testcases.push_back(std::move(testcase));
      expect_ = Expect::kDescription;
      return "";
    }
    if (expect_ == Expect::kDescription && !StartsWith(line, "Error:")) {
      Current().description = std::string(line);
      Current().unit = UnitOf(line);
      expect_ = Expect::kColumns;
      return "";
    }
    if (expect_ == Expect::kColumns) {
      Matrix matrix;
      for (const auto word : SplitWords(line)) matrix.column_labels.emplace_back(word);
      Current().matrix = std::move(matrix);
      expect_ = Expect::kRows;
      return "";
    }
    if (expect_ == Expect::kRows && !StartsWith(line, "SUM ") && !StartsWith(line, "&&&& ")) return ReadRow(line);
    expect_ = Expect::kAnything;
    return ReadOther(line);
  }

  // " 6    274.89    276.41 ..." -> label "6" and one value per column; a label may hold spaces
  // (multinode rows name their process), so the values are taken from the right.
  std::string ReadRow(std::string_view line) {
    Matrix& matrix = *Current().matrix;
    const auto words = SplitWords(line);
    const std::size_t columns = matrix.column_labels.size();
    if (words.size() <= columns) {
      return "a matrix row needs a label and " + std::to_string(columns) + " values: " + QuoteForMessage(line);
    }
    std::vector<std::optional<double>> row;
    for (std::size_t i = words.size() - columns; i < words.size(); ++i) {
      const auto value = CellValue(words[i]);
      if (!value) return "a matrix value that is neither a number nor N/A: " + QuoteForMessage(words[i]);
      row.push_back(*value);
    }
    std::vector<std::string> label;
    for (std::size_t i = 0; i < words.size() - columns; ++i) label.emplace_back(words[i]);
    matrix.row_labels.push_back(Join(label, " "));
    matrix.values.push_back(std::move(row));
    Current().status = "Passed";
    return "";
  }

  std::string ReadOther(std::string_view line) {
    const auto words = SplitWords(line);
    if ((words.size() == 3 && words[0] == "SUM") || (words.size() == 4 && words[0] == "&&&&" && words[1] == "PERF")) {
      const std::string_view name = words[words.size() - 2];
      std::string_view number = words.back();
      while (!number.empty() && !(number.back() >= '0' && number.back() <= '9')) number.remove_suffix(1);  // "12.3ns"
      const auto value = CellValue(number);
      if (!value || !*value) return "a SUM that is not a number: " + QuoteForMessage(words.back());
      Testcase* testcase = Named(name);
      if (!testcase) return "a SUM for a testcase that did not run: " + QuoteForMessage(name);
      testcase->sum = **value;
      return "";
    }
    if (StartsWith(line, "Waived:")) {
      Testcase waived;  // the text names no testcase for a waived one
      waived.status = "Waived";
      report_.testcases.push_back(std::move(waived));
      return "";
    }
    if (StartsWith(line, "Error:") || StartsWith(line, "ERROR:")) {
      if (report_.testcases.empty() || Current().status != "Running") {
        Testcase failed;  // "ERROR: <why>" for a testcase name that matched none
        failed.status = "Error";
        failed.error = std::string(Trim(line.substr(6)));
        report_.testcases.push_back(std::move(failed));
        return "";
      }
      Current().status = "Error";
      Current().error = std::string(Trim(line.substr(6)));
      return "";
    }
    if (StartsWith(line, "nvbandwidth Version:")) report_.version = std::string(Trim(line.substr(20)));
    if (StartsWith(line, "Driver Version:")) report_.driver_version = std::string(Trim(line.substr(15)));
    if (StartsWith(line, "CUDA Runtime Version:")) report_.cuda_version = std::string(Trim(line.substr(21)));
    if (StartsWith(line, "Device ") && Contains(line, ": ")) report_.devices.emplace_back(line);
    return "";  // the NOTE lines, the hostname, "Built from Git version", VERBOSE MIN/MAX/AVG
  }

  Testcase& Current() { return report_.testcases.back(); }

  Testcase* Named(std::string_view name) {
    for (auto it = report_.testcases.rbegin(); it != report_.testcases.rend(); ++it) {
      if (it->name == name) return &*it;
    }
    return nullptr;
  }

  std::string origin_;
  NvbandwidthReport report_;
  Expect expect_ = Expect::kAnything;
};

}  // namespace

Result<NvbandwidthReport> ParseNvbandwidthText(const std::string& text, const std::string& origin) {
  return TextReader(origin).Read(text);
}

}  // namespace gpuconform::nvbandwidth
