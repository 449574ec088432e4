#include "probes/dcgm/dcgm_diag_parse.h"

#include <charconv>

#include "harness/util/text_util.h"
#include "probes/dcgm/dcgm_diag_formats.h"
#include "probes/dcgm/dcgm_error_codes.h"

namespace gpuconform::dcgm {

namespace {

// "GPU 3 Error using CUDA API cuInit ..." -> 3: dcgmi 3.x names the GPU only in the message.
std::optional<int> GpuNamedFirst(std::string_view text) {
  if (!StartsWith(text, "GPU ")) return std::nullopt;
  text.remove_prefix(4);
  int gpu = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), gpu);
  if (error != std::errc() || end == text.data() || gpu < 0) return std::nullopt;
  if (end != text.data() + text.size() && *end != ' ' && *end != ':' && *end != ',') return std::nullopt;
  return gpu;
}

void NoteEnvironment(DiagMessage& message, const std::string& test, std::vector<EnvironmentEvidence>& evidence) {
  message.environment = ClassifyEnvironment(message.text, message.error_id);
  if (message.environment != EnvironmentFailure::kNone) {
    evidence.push_back({message.environment, test, message.gpu, message.text});
  }
}

// What both forms leave to the end: the GPU a test-level message names, and every message's
// environment class, listed apart as evidence.
void AddEnvironmentEvidence(DcgmDiagReport& report) {
  for (const auto& error : report.runtime_errors) {
    const EnvironmentFailure failure = ClassifyEnvironment(error);
    if (failure != EnvironmentFailure::kNone) report.environment_failures.push_back({failure, "", std::nullopt, error});
  }
  for (auto& test : report.tests) {
    for (auto& message : test.warnings) {
      if (!message.gpu) message.gpu = GpuNamedFirst(message.text);
      NoteEnvironment(message, test.name, report.environment_failures);
    }
    for (auto& entity : test.entities) {
      for (auto& message : entity.warnings) NoteEnvironment(message, test.name, report.environment_failures);
    }
  }
}

}  // namespace

const char* DiagStateName(DiagState state) {
  switch (state) {
    case DiagState::kPass: return "pass";
    case DiagState::kFail: return "fail";
    case DiagState::kWarn: return "warn";
    case DiagState::kSkip: return "skip";
    case DiagState::kNotRun: return "not-run";
  }
  return "pass";
}

std::optional<DiagState> DiagStateFromWord(std::string_view word) {
  const std::string lower = Lowercase(Trim(word));
  if (lower == "pass") return DiagState::kPass;
  if (lower == "fail") return DiagState::kFail;
  if (lower == "warn") return DiagState::kWarn;
  if (lower == "skip") return DiagState::kSkip;
  if (lower == "not run") return DiagState::kNotRun;
  return std::nullopt;
}

std::vector<std::string> CommaList(std::string_view text) {
  std::vector<std::string> items;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = Trim(text.substr(0, comma));
    if (!item.empty()) items.emplace_back(item);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return items;
}

std::optional<std::vector<int>> GpuNumbers(std::string_view text) {
  std::vector<int> gpus;
  for (const auto& item : CommaList(text)) {
    int gpu = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), gpu);
    if (error != std::errc() || end != item.data() + item.size() || gpu < 0) return std::nullopt;
    gpus.push_back(gpu);
  }
  if (gpus.empty()) return std::nullopt;
  return gpus;
}

DiagMessage MakeMessage(std::string text, std::optional<long long> error_id, std::optional<int> gpu) {
  DiagMessage message;
  message.text = std::move(text);
  message.error_id = error_id;
  if (error_id) message.error_name = DcgmErrorName(*error_id);
  message.gpu = gpu;
  return message;
}

std::optional<DiagState> DiagTest::GpuState(int gpu) const {
  for (const auto& entity : entities) {
    if (entity.entity_group == "GPU" && entity.entity_id == gpu) return entity.state;
  }
  if (all_gpus) return overall;
  return std::nullopt;
}

const DiagTest* DcgmDiagReport::FindTest(const std::string& name) const {
  for (const auto& test : tests) {
    if (test.name == name) return &test;
  }
  return nullptr;
}

Result<DcgmDiagReport> ParseDcgmDiag(const std::string& text, const std::string& origin) {
  const std::string_view content = Trim(text);
  auto report = !content.empty() && content.front() == '{' ? ParseDcgmDiagJson(text, origin)
                                                           : ParseDcgmDiagText(text, origin);
  if (!report) return report;
  AddEnvironmentEvidence(report.value());
  return report;
}

}  // namespace gpuconform::dcgm
