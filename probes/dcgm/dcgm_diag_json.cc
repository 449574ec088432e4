// dcgmi diag -j (dcgmi/Diag.cpp, key names from nvvs/include/NvvsJsonStrings.h): DCGM 4.x keys
// its results by entity ("entity_group", "entity_id") under "DCGM Diagnostic", with the
// versions under "metadata"; DCGM 3.x by "gpu_id" (2.x "gpu_ids") under "DCGM GPU Diagnostic",
// with the versions at the top level.
#include <charconv>
#include <climits>
#include <nlohmann/json.hpp>

#include "harness/util/text_util.h"
#include "probes/dcgm/dcgm_diag_formats.h"

namespace gpuconform::dcgm {

namespace {

using nlohmann::json;

const json* Member(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string StringMember(const json& object, const char* key) {
  const json* value = Member(object, key);
  return value && value->is_string() ? value->get<std::string>() : "";
}

// A whole number written as a number or a string ("gpu_id": "0" in 3.x).
std::optional<long long> WholeMember(const json& object, const char* key) {
  const json* value = Member(object, key);
  if (!value) return std::nullopt;
  if (value->is_number_integer()) return value->get<long long>();
  if (value->is_string()) {
    const std::string text = value->get<std::string>();
    long long number = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (!text.empty() && error == std::errc() && end == text.data() + text.size()) return number;
  }
  return std::nullopt;
}

// "warnings": [{"warning": "...", "error_id": 44}], 3.x deployment tests' {"warnings": "..."},
// or plain strings.
std::string ReadWarnings(const json& result, std::optional<int> gpu, std::vector<DiagMessage>& into) {
  const json* warnings = Member(result, "warnings");
  if (!warnings) return "";
  if (!warnings->is_array()) return "\"warnings\" is not a list";
  for (const auto& warning : *warnings) {
    if (warning.is_string()) {
      into.push_back(MakeMessage(warning.get<std::string>(), std::nullopt, gpu));
      continue;
    }
    std::string text = StringMember(warning, "warning");
    if (text.empty()) text = StringMember(warning, "warnings");
    if (text.empty()) return "a warning without its text";
    into.push_back(MakeMessage(std::move(text), WholeMember(warning, "error_id"), gpu));
  }
  return "";
}

// "info": one string (3.x) or a list of strings (4.x).
void ReadInfo(const json& result, std::vector<std::string>& into) {
  const json* info = Member(result, "info");
  if (!info) return;
  if (info->is_string()) into.push_back(info->get<std::string>());
  if (!info->is_array()) return;
  for (const auto& line : *info) {
    if (line.is_string()) into.push_back(line.get<std::string>());
  }
}

bool SameMessage(const DiagMessage& a, const DiagMessage& b) { return a.text == b.text && a.error_id == b.error_id; }

class JsonReader {
 public:
  explicit JsonReader(const std::string& origin) : origin_(origin) {
    report_.origin = origin;
    report_.format = "json";
    report_.complete = true;
  }

  Result<DcgmDiagReport> Read(const std::string& text) {
    json root;
    try {
      root = json::parse(text);
    } catch (const json::exception& error) {
      return Fail("not valid JSON (" + std::string(error.what()) + ")");
    }
    if (Member(root, "iterations")) {
      return Fail("several iterations of the diagnostic in one document (dcgmi diag --iterations): run it once");
    }
    const json* diag = Member(root, "DCGM Diagnostic");
    if (!diag) diag = Member(root, "DCGM GPU Diagnostic");
    if (!diag || !diag->is_object()) {
      return Fail("not dcgmi diag -j output: no \"DCGM Diagnostic\" or \"DCGM GPU Diagnostic\" object");
    }
    ReadVersions(root, *diag);
    if (const std::string error = StringMember(*diag, "runtime_error"); !error.empty()) {
      report_.runtime_errors.push_back(error);
    }
    const json* categories = Member(*diag, "test_categories");
    if (!categories && report_.runtime_errors.empty()) return Fail("no \"test_categories\" and no \"runtime_error\"");
    if (categories && !categories->is_array()) return Fail("\"test_categories\" is not a list");
    if (categories) {
      for (const auto& category : *categories) {
        if (auto problem = ReadCategory(category); !problem.empty()) return Fail(problem);
      }
    }
    return report_;
  }

 private:
  Error Fail(const std::string& message) const { return Error{origin_ + ": " + message}; }

  void ReadVersions(const json& root, const json& diag) {
    const json* metadata = Member(root, "metadata");
    const json& versions = metadata ? *metadata : root;
    report_.dcgm_version = StringMember(versions, "version");
    if (report_.dcgm_version.empty()) report_.dcgm_version = StringMember(diag, "version");
    report_.driver_version = StringMember(versions, "Driver Version Detected");
    if (const json* ids = Member(root, "GPU Device IDs"); ids && ids->is_array()) {
      for (const auto& id : *ids) {
        if (id.is_string()) report_.gpu_device_ids.push_back(id.get<std::string>());
      }
    }
    const json* groups = Member(root, "entity_groups");
    if (!groups || !groups->is_array()) return;
    for (const auto& group : *groups) {
      if (StringMember(group, "entity_group") != "GPU") continue;
      const json* entities = Member(group, "entities");
      if (!entities || !entities->is_array()) continue;
      for (const auto& entity : *entities) {
        const json* device = Member(entity, "device_id");
        if (device && device->is_string()) report_.gpu_device_ids.push_back(device->get<std::string>());
      }
    }
  }

  std::string ReadCategory(const json& category) {
    const std::string name = StringMember(category, "category");
    const json* tests = Member(category, "tests");
    if (!tests) return "";  // a category with no test that ran
    if (!tests->is_array()) return "category '" + name + "': \"tests\" is not a list";
    for (const auto& entry : *tests) {
      DiagTest test;
      test.name = StringMember(entry, "name");
      test.category = name;
      if (test.name.empty()) return "category '" + name + "': a test without a name";
      if (auto problem = ReadResults(entry, test); !problem.empty()) return "test '" + test.name + "': " + problem;
      if (const json* summary = Member(entry, "test_summary")) {
        if (auto problem = ReadSummary(*summary, test); !problem.empty()) {
          return "test '" + test.name + "' summary: " + problem;
        }
      }
      report_.tests.push_back(std::move(test));
    }
    return "";
  }

  std::string ReadResults(const json& entry, DiagTest& test) {
    const json* results = Member(entry, "results");
    if (!results) return "";
    if (!results->is_array()) return "\"results\" is not a list";
    for (const auto& result : *results) {
      const auto state = DiagStateFromWord(StringMember(result, "status"));
      if (!state) return "a result without a status I know: " + QuoteForMessage(StringMember(result, "status"));
      std::vector<int> gpus;
      std::string group = "GPU";
      if (const auto id = WholeMember(result, "entity_id")) {
        group = StringMember(result, "entity_group");
        if (group.empty()) group = "GPU";
        if (*id < 0 || *id > INT_MAX) return "entity_id out of range";
        gpus.push_back(static_cast<int>(*id));
      } else if (const auto gpu = WholeMember(result, "gpu_id")) {
        if (*gpu < 0 || *gpu > INT_MAX) return "gpu_id out of range";
        gpus.push_back(static_cast<int>(*gpu));
      } else if (const std::string list = StringMember(result, "gpu_ids"); !list.empty()) {
        auto numbers = GpuNumbers(list);
        if (!numbers) return "gpu_ids is not a list of GPU numbers: " + QuoteForMessage(list);
        gpus = std::move(*numbers);
      }
      if (gpus.empty()) {  // the test's own result (deployment tests)
        test.overall = *state;
        if (auto problem = ReadWarnings(result, std::nullopt, test.warnings); !problem.empty()) return problem;
        ReadInfo(result, test.info);
        continue;
      }
      for (const int id : gpus) {
        EntityResult entity;
        entity.entity_group = group;
        entity.entity_id = id;
        entity.state = *state;
        const std::optional<int> gpu = group == "GPU" ? std::optional<int>(id) : std::nullopt;
        if (auto problem = ReadWarnings(result, gpu, entity.warnings); !problem.empty()) return problem;
        ReadInfo(result, entity.info);
        test.entities.push_back(std::move(entity));
      }
    }
    return "";
  }

  // 4.x's summary repeats every entity's errors; only those tied to no entity are kept here.
  static std::string ReadSummary(const json& summary, DiagTest& test) {
    const auto state = DiagStateFromWord(StringMember(summary, "status"));
    if (!state) return "no status I know: " + QuoteForMessage(StringMember(summary, "status"));
    test.overall = *state;
    std::vector<DiagMessage> warnings;
    if (auto problem = ReadWarnings(summary, std::nullopt, warnings); !problem.empty()) return problem;
    for (auto& warning : warnings) {
      bool known = false;
      for (const auto& entity : test.entities) {
        for (const auto& seen : entity.warnings) known = known || SameMessage(seen, warning);
      }
      for (const auto& seen : test.warnings) known = known || SameMessage(seen, warning);
      if (!known) test.warnings.push_back(std::move(warning));
    }
    return "";
  }

  std::string origin_;
  DcgmDiagReport report_;
};

}  // namespace

Result<DcgmDiagReport> ParseDcgmDiagJson(const std::string& text, const std::string& origin) {
  return JsonReader(origin).Read(text);
}

}  // namespace gpuconform::dcgm
