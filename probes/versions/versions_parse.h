// Parsers for the version outputs the Software suite reads. Pure: text in, version out,
// or an error naming the origin and line. Each accepts exactly what the tool prints
// (trailing newlines, banners) and rejects anything else rather than guess.
#pragma once

#include <string>

#include "harness/util/result.h"
#include "probes/nvidia_smi/query_xml_parse.h"

namespace gpuconform::versions {

Result<std::string> ParseKernelRelease(const std::string& text, const std::string& origin);  // uname -r
Result<std::string> ParseSlurmdVersion(const std::string& text, const std::string& origin);  // slurmd -V
Result<std::string> ParseMungedVersion(const std::string& text, const std::string& origin);  // munged --version
Result<std::string> ParseMpiLibraryVersion(const std::string& text, const std::string& origin);
Result<std::string> ParseDottedVersion(const std::string& text, const std::string& origin);  // "2.18.3"
// gpuconform's own (cmake/GitVersion.cmake): "0.1.0", "1.2.0+12.gabc1234", "0.1.0+git229.gcec10b0.dirty".
Result<std::string> ParseGpuconformVersion(const std::string& text, const std::string& origin);

struct NvidiaSmiVersions {
  std::string driver;  // <driver_version>
  std::string cuda;    // <cuda_version>
};
// nvidia-smi -q -x through its one parser (probes/nvidia_smi); an output without a driver
// version is an error.
Result<NvidiaSmiVersions> ParseNvidiaSmiVersions(const std::string& xml, const std::string& origin);
Result<NvidiaSmiVersions> VersionsOf(const nvidia_smi::GpuInventory& inventory, const std::string& origin);

}  // namespace gpuconform::versions
