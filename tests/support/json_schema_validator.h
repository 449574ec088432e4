// Validates JSON files against one of the shipped schemas (schemas/*.schema.json) with a real
// validator: Debian's python3-jsonschema, Draft 2020-12, in one process for all files.
// Test-only and header-only.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/process_runner.h"

namespace gpuconform::test_support {

inline bool JsonSchemaValidatorInstalled() {
  return RunCommand({"python3", "-c", "import jsonschema"}, std::chrono::seconds(30)).exit_code == 0;
}

inline constexpr char kNoJsonSchemaValidator[] =
    "python3-jsonschema is not installed (Debian: python3-jsonschema; ci/install-deps installs it)";

// {every file valid, the validator's output: one line per error, naming the file and path}.
inline std::pair<bool, std::string> ValidateAgainstSchema(const std::filesystem::path& schema,
                                                          const std::vector<std::filesystem::path>& files) {
  std::vector<std::string> argv = {"python3", "-c",
                                   "import json, sys, jsonschema\n"
                                   "schema = json.load(open(sys.argv[1]))\n"
                                   "jsonschema.Draft202012Validator.check_schema(schema)\n"
                                   "validator = jsonschema.Draft202012Validator(schema)\n"
                                   "bad = 0\n"
                                   "for path in sys.argv[2:]:\n"
                                   "    for error in validator.iter_errors(json.load(open(path))):\n"
                                   "        bad += 1\n"
                                   "        print(path, list(error.absolute_path), error.message)\n"
                                   "sys.exit(1 if bad else 0)\n",
                                   schema.string()};
  for (const auto& file : files) argv.push_back(file.string());
  const CommandResult result = RunCommand(argv, std::chrono::seconds(120));
  return {result.exit_code == 0, result.stdout_text + result.stderr_text};
}

}  // namespace gpuconform::test_support
