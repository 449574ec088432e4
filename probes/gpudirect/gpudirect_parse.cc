#include "probes/gpudirect/gpudirect_parse.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "harness/util/line_source.h"
#include "harness/util/record_lines.h"
#include "harness/util/text_util.h"

namespace gpuconform::gpudirect {

namespace {

bool IsModuleName(std::string_view word) {
  if (word.empty() || word.size() > 64) return false;
  return std::all_of(word.begin(), word.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; });
}

bool IsCount(std::string_view word) {
  return !word.empty() && word.size() <= 20 &&
         std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "nvidia_peermem         16384  0" or "ib_core  4358144  9 rdma_cm,ib_ipoib,...": a name, a
// size in bytes and a use count, as /proc/modules and lsmod print them.
std::optional<std::string> ModuleLine(std::string_view line) {
  const auto words = SplitWords(line);
  if (words.size() < 3 || !IsModuleName(words[0]) || !IsCount(words[1]) || !IsCount(words[2])) return std::nullopt;
  return std::string(words[0]);
}

bool OfInterest(const std::string& module) {
  const auto& modules = ModulesOfInterest();
  return std::find(modules.begin(), modules.end(), module) != modules.end();
}

// Keeps `list` in ModulesOfInterest order, each once.
void Add(std::vector<std::string>& list, const std::string& module) {
  if (!OfInterest(module) || std::find(list.begin(), list.end(), module) != list.end()) return;
  list.push_back(module);
  const auto& order = ModulesOfInterest();
  std::sort(list.begin(), list.end(), [&](const std::string& a, const std::string& b) {
    return std::find(order.begin(), order.end(), a) < std::find(order.begin(), order.end(), b);
  });
}

// A shell prompt running lsmod: "(pytorch) [root@gpu3 ~]# lsmod | grep nvidia_peermem" or
// "user@node:~$ lsmod". Sets the host the prompt names and the grep pattern (empty for a bare lsmod).
bool PromptLine(std::string_view line, std::string& host, std::string& pattern, bool& prompt_only) {
  const auto hash = line.find("# ");
  const auto dollar = line.find("$ ");
  auto mark = std::min(hash, dollar);
  std::string_view command;
  if (mark != std::string_view::npos) {
    command = Trim(line.substr(mark + 2));
  } else if (!line.empty() && (line.back() == '#' || line.back() == '$') && line.find('@') != std::string_view::npos) {
    mark = line.size() - 1;  // a prompt with no command: the transcript's last line
  } else {
    return false;
  }
  const std::string_view prompt = line.substr(0, mark);
  const auto at = prompt.find('@');
  if (at != std::string_view::npos) {
    std::size_t end = at + 1;
    while (end < prompt.size() && (std::isalnum(static_cast<unsigned char>(prompt[end])) || prompt[end] == '-' ||
                                   prompt[end] == '.' || prompt[end] == '_')) {
      ++end;
    }
    if (end > at + 1) host = std::string(prompt.substr(at + 1, end - at - 1));
  }
  prompt_only = command.empty();
  if (prompt_only) return true;
  if (!StartsWith(command, "lsmod")) return false;
  pattern.clear();
  const auto grep = command.find("grep ");
  if (grep != std::string_view::npos) {
    const auto words = SplitWords(command.substr(grep + 5));
    for (const auto word : words) {
      if (StartsWith(word, "-")) continue;  // grep's options
      pattern = std::string(word);
      break;
    }
  }
  return true;
}

Result<GpuDirectReport> ParseProbe(const std::string& text, const std::string& origin) {
  auto records = ParseRecordLines(text, origin);
  if (!records) return Error{records.error()};
  GpuDirectReport report;
  report.origin = origin;
  report.format = "probe";
  for (const auto& record : *records) {
    if (record.kind == "gpudirect") {
      report.kernel_release = record.Get("kernel_release");
      continue;
    }
    if (record.kind == "module") {
      const std::string name = record.Get("name");
      const std::string loaded = record.Get("loaded");
      if (!IsModuleName(name)) return ErrorAt(origin, record.line, "a module needs name=");
      if (loaded != "0" && loaded != "1") return ErrorAt(origin, record.line, "loaded='" + loaded + "' is not 0 or 1");
      Add(report.searched, name);
      if (loaded == "1") Add(report.loaded, name);
      continue;
    }
    if (record.kind == "driver") {
      report.driver_version = record.Get("version");
      const std::string open = record.Get("open_kernel_module");
      if (open == "1") report.open_kernel_module = true;
      if (open == "0") report.open_kernel_module = false;
      if (!open.empty() && open != "0" && open != "1") {
        return ErrorAt(origin, record.line, "open_kernel_module='" + open + "' is not 0 or 1");
      }
      if (!report.driver_version.empty() && !MajorMinor(report.driver_version)) {
        return ErrorAt(origin, record.line, "version='" + report.driver_version + "' is not a driver version");
      }
      continue;
    }
    return ErrorAt(origin, record.line, "unexpected '" + record.kind + "' record");
  }
  return report;
}

// lsmod, with or without its header, bare or in a shell transcript.
Result<GpuDirectReport> ParseLsmod(const std::string& text, const std::string& origin) {
  GpuDirectReport report;
  report.origin = origin;
  report.format = "lsmod-grep";
  std::string pattern;
  bool in_command = false;  // after a prompt that ran lsmod: its output follows
  TextLines lines(text);
  while (const auto next = lines.Next()) {
    const std::string_view line_view = WithoutCarriageReturn(next->text);
    const std::string_view line = Trim(line_view);
    if (line.empty()) continue;
    if (StartsWith(line, "Module ") && Contains(line, "Used by")) {
      report.format = "lsmod";  // the whole list: every module of interest was looked for
      for (const auto& module : ModulesOfInterest()) Add(report.searched, module);
      continue;
    }
    bool prompt_only = false;
    if (PromptLine(line, report.host, pattern, prompt_only)) {
      in_command = !prompt_only;
      if (in_command && !pattern.empty()) {
        for (const auto& module : ModulesOfInterest()) {
          if (Contains(module, pattern)) Add(report.searched, module);
        }
      }
      continue;
    }
    const auto module = ModuleLine(line);
    if (!module) {
      return ErrorAt(origin, next->number, "'" + std::string(line.substr(0, 80)) +
                                         "' is not an lsmod line (name, size, use count)");
    }
    Add(report.loaded, *module);
    if (!in_command && pattern.empty() && report.format != "lsmod") Add(report.searched, *module);
  }
  return report;
}

}  // namespace

const std::vector<std::string>& ModulesOfInterest() {
  static const std::vector<std::string> kModules = {kPeermem, kLegacyPeermem, "nvidia", "ib_core"};
  return kModules;
}

bool GpuDirectReport::Loaded(const std::string& module) const {
  return std::find(loaded.begin(), loaded.end(), module) != loaded.end();
}

bool GpuDirectReport::Searched(const std::string& module) const {
  return std::find(searched.begin(), searched.end(), module) != searched.end();
}

std::string GpuDirectReport::PeerMemoryModule() const {
  if (Loaded(kPeermem)) return kPeermem;
  if (Loaded(kLegacyPeermem)) return kLegacyPeermem;
  return "";
}

std::optional<std::pair<int, int>> MajorMinor(const std::string& version) {
  int major = 0;
  int minor = 0;
  const char* begin = version.data();
  const char* end = version.data() + version.size();
  auto [after_major, ec] = std::from_chars(begin, end, major);
  if (ec != std::errc() || after_major == begin || after_major == end || *after_major != '.') return std::nullopt;
  auto [after_minor, ec2] = std::from_chars(after_major + 1, end, minor);
  if (ec2 != std::errc() || after_minor == after_major + 1) return std::nullopt;
  return std::make_pair(major, minor);
}

Result<GpuDirectReport> ParseGpuDirect(const std::string& text, const std::string& origin) {
  for (const auto line_view : SplitLines(text)) {
    const std::string_view line = Trim(line_view);
    if (line.empty()) continue;
    if (StartsWith(line, "gpudirect ") || StartsWith(line, "module ") || StartsWith(line, "driver ") ||
        StartsWith(line, "# gpudirect.txt")) {
      return ParseProbe(text, origin);
    }
    break;
  }
  // Everything else is lsmod's: a header, module lines or a transcript; an empty text is a grep
  // that matched nothing. Text that is none of these is refused line by line.
  return ParseLsmod(text, origin);
}

}  // namespace gpuconform::gpudirect
