// gpuconform under a GPU profile on a node without a GPU, against NVIDIA's real user-space:
// with the real libnvidia-ml.so.1, libcuda.so.1 and nvidia-smi installed (ci/install-deps
// installs Debian's), every GPU check must be an <error> of fault class tooling that names the
// node and quotes what NVIDIA's own code said (nvidia-smi's first line, nvmlErrorString of
// nvmlInit_v2, cuGetErrorName/cuGetErrorString of cuInit), never a pass or a crash. The test
// asks NVIDIA's libraries and nvidia-smi itself for that text rather than trusting the probes.
// Second case: the same with none of them (GPUCONFORM_GPU_LIBRARY_DIR and PATH an empty directory).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <pugixml.hpp>
#include <string>
#include <vector>

#include "harness/core/live_source.h"
#include "harness/core/process_runner.h"
#include "harness/core/reason_catalogue.h"
#include "harness/util/text_util.h"
#include "support/test_support.h"

namespace gpuconform {
namespace {

using namespace std::chrono_literals;

// The GPU checks of h100-sxm-8 that need NVIDIA's driver, libraries or nvidia-smi. Left out:
// the kernel log's XIDs and the NICs (other sources), nccl-tests' output and a static
// NCCL_TOPO_FILE (files the user gives, skipped where none is given).
constexpr char kGpuChecks[] =
    "NvSwitch.*:Pcie.LinksAtMaxGenAndWidth*:GpuHealth.*:NcclTopology.*:NcclTransport.*:AllreduceBandwidth.Nccl*"
    "-GpuHealth.NoHardwareXids*:AllreduceBandwidth.NcclTests*:NcclTopology.TopoFileMatchesNode*";

// Where each check's facts come from, so the right text is looked for in its message.
enum class Source { kNvidiaSmi, kNvidiaSmiAndNvml, kCuda };

Source SourceOf(const std::string& suite, const std::string& check) {
  if (suite == "NcclTopology" || suite == "NcclTransport" || suite == "AllreduceBandwidth") return Source::kCuda;
  if (check.rfind("PeerAccess", 0) == 0 || check.rfind("P2p", 0) == 0) return Source::kCuda;
  for (const char* nvml_first : {"GpuCountAndModel", "AllLinksActive", "FabricRegistered", "LinksAtMaxGenAndWidth"}) {
    if (check.rfind(nvml_first, 0) == 0) return Source::kNvidiaSmiAndNvml;
  }
  return Source::kNvidiaSmi;
}

struct ErrorCase {
  std::string name;  // Suite.Check[/node]
  Source source = Source::kNvidiaSmi;
  std::string message;
  std::string type;
};

// Runs gpuconform (through env(1), with `environment` on top) and returns every GPU check's
// result; a check that is not an <error> fails the test here.
std::vector<ErrorCase> RunGpuChecks(const std::vector<std::string>& environment, const std::string& junit) {
  std::vector<std::string> argv = {"/usr/bin/env"};
  argv.insert(argv.end(), environment.begin(), environment.end());
  argv.insert(argv.end(),
              {GPUCONFORM_BINARY, "run", "--profile", "h100-sxm-8", "--filter", kGpuChecks, "--junit", junit});
  const CommandResult run = RunCommand(argv, 300s);
  // Exit 3: nothing non-conforming, but checks could not be evaluated; not a crash, not a pass.
  EXPECT_EQ(run.exit_code, 3) << run.stdout_text << run.stderr_text;
  pugi::xml_document document;
  EXPECT_TRUE(document.load_file(junit.c_str())) << junit;
  std::vector<ErrorCase> cases;
  for (const auto& suite : document.child("testsuites").children("testsuite")) {
    for (const auto& testcase : suite.children("testcase")) {
      const std::string name = std::string(suite.attribute("name").value()) + "." + testcase.attribute("name").value();
      const pugi::xml_node error = testcase.child("error");
      EXPECT_TRUE(error) << name << " is not an <error>: " << run.stdout_text;
      if (!error) continue;
      cases.push_back({name, SourceOf(suite.attribute("name").value(), testcase.attribute("name").value()),
                       error.attribute("message").value(), error.attribute("type").value()});
    }
  }
  // NvSwitch 7, Pcie 1, NcclTopology 4, NcclTransport 7, AllreduceBandwidth 3, and GpuHealth's.
  EXPECT_GE(cases.size(), 22u) << run.stdout_text;
  return cases;
}

void ExpectToolingErrorNamingTheNode(const ErrorCase& error, const std::string& node) {
  const ReasonEntry* reason = FindReason(error.type);
  ASSERT_NE(reason, nullptr) << error.name << ": type " << error.type << " is not in the catalogue";
  EXPECT_EQ(reason->fault_class, FaultClass::kTooling) << error.name << ": " << error.type;
  EXPECT_TRUE(Contains(error.message, node + ": ")) << error.name << " does not name the node: " << error.message;
}

// nvidia-smi's first line as it prints it when it cannot run, or "" where it runs.
std::string NvidiaSmiSays() {
  const CommandResult smi = RunCommand({"nvidia-smi"}, 60s);
  if (smi.outcome != CommandOutcome::kExited || smi.exit_code == 0) return "";
  const std::string said = smi.stdout_text + smi.stderr_text;
  for (const auto line : SplitLines(said)) {
    if (!Trim(line).empty()) return std::string(Trim(line));
  }
  return "";
}

// nvmlErrorString(nvmlInit_v2()), or "" where NVML is absent or starts.
std::string NvmlSays() {
  void* nvml = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (nvml == nullptr) return "";
  auto init = reinterpret_cast<int (*)()>(::dlsym(nvml, "nvmlInit_v2"));
  auto words = reinterpret_cast<const char* (*)(int)>(::dlsym(nvml, "nvmlErrorString"));
  const int code = init && words ? init() : 0;
  std::string said = code != 0 ? words(code) : "";
  if (init && code == 0) reinterpret_cast<int (*)()>(::dlsym(nvml, "nvmlShutdown"))();
  ::dlclose(nvml);
  return said;
}

// "<cuGetErrorName>: <cuGetErrorString>" of cuInit(0)'s answer, or "" where the driver is
// absent or starts. libcuda.so.1 stays loaded: a driver is not unloaded once initialised.
std::string CudaSays(std::string& name) {
  void* cuda = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (cuda == nullptr) return "";
  auto init = reinterpret_cast<int (*)(unsigned)>(::dlsym(cuda, "cuInit"));
  auto error_name = reinterpret_cast<int (*)(int, const char**)>(::dlsym(cuda, "cuGetErrorName"));
  auto error_string = reinterpret_cast<int (*)(int, const char**)>(::dlsym(cuda, "cuGetErrorString"));
  if (!init || !error_name || !error_string) return "";
  const int code = init(0);
  if (code == 0) return "";
  const char* n = nullptr;
  const char* s = nullptr;
  if (error_name(code, &n) != 0 || error_string(code, &s) != 0 || !n || !s) return "";
  name = n;
  return s;
}

TEST(NvidiaUserSpace, WithoutAGpuEveryGpuCheckIsAToolingErrorQuotingNvidiasOwnWords) {
  const std::string smi = NvidiaSmiSays();
  const std::string nvml = NvmlSays();
  std::string cuda_name;
  const std::string cuda = CudaSays(cuda_name);
  if (smi.empty() || nvml.empty() || cuda.empty()) {
    GTEST_SKIP() << "NVIDIA's nvidia-smi, libnvidia-ml.so.1 and libcuda.so.1 are not all installed here, or a GPU "
                    "answers (ci/install-deps installs them; nvidia-smi said '"
                 << smi << "', nvmlInit '" << nvml << "', cuInit '" << cuda << "')";
  }
  // What NVIDIA's code says on a node with its libraries and no driver, as the issue reports it.
  EXPECT_TRUE(Contains(smi, "couldn't communicate with the NVIDIA driver")) << smi;
  test_support::TempDir temp;
  const std::string node = LocalHostname();
  for (const ErrorCase& error : RunGpuChecks({}, temp.path() + "/out.xml")) {
    ExpectToolingErrorNamingTheNode(error, node);
    if (error.source == Source::kCuda) {
      EXPECT_TRUE(Contains(error.message, "cuInit(0) failed: " + cuda_name)) << error.name << ": " << error.message;
      EXPECT_TRUE(Contains(error.message, cuda)) << error.name << ": " << error.message;
    } else {
      EXPECT_TRUE(Contains(error.message, smi)) << error.name << ": " << error.message;
    }
    if (error.source == Source::kNvidiaSmiAndNvml) {
      EXPECT_TRUE(Contains(error.message, "nvmlInit_v2 failed: " + nvml)) << error.name << ": " << error.message;
    }
  }
}

TEST(NvidiaUserSpace, WithoutNvidiasLibrariesAndToolsEveryGpuCheckIsAToolingErrorSayingWhatIsMissing) {
  test_support::TempDir temp;
  const std::string empty = temp.path() + "/empty";
  std::filesystem::create_directory(empty);
  const std::string node = LocalHostname();
  const auto errors = RunGpuChecks({"GPUCONFORM_GPU_LIBRARY_DIR=" + empty, "PATH=" + empty}, temp.path() + "/out.xml");
  for (const ErrorCase& error : errors) {
    ExpectToolingErrorNamingTheNode(error, node);
    if (error.source == Source::kCuda) {
      // dlopen's own words, naming the directory it was told to look in.
      EXPECT_TRUE(Contains(error.message, "no NVIDIA driver (libcuda.so.1 not found: " + empty +
                                              "/libcuda.so.1: cannot open shared object file"))
          << error.name << ": " << error.message;
    } else {
      EXPECT_TRUE(Contains(error.message, "`nvidia-smi` is not installed")) << error.name << ": " << error.message;
    }
    if (error.source == Source::kNvidiaSmiAndNvml) {
      EXPECT_TRUE(Contains(error.message, "no NVIDIA driver (libnvidia-ml.so.1 not found: " + empty))
          << error.name << ": " << error.message;
    }
  }
}

}  // namespace
}  // namespace gpuconform
