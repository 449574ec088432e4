// The name of a filesystem type from statfs(2)'s f_type, for messages such as "the
// temporary location is on tmpfs, the target on nfs". Pure; unknown types print in hex.
#pragma once

#include <string>

namespace gpuconform::checkpoint {

std::string FilesystemTypeName(unsigned long f_type);

}  // namespace gpuconform::checkpoint
