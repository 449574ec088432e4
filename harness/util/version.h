// The version of this build of gpuconform.
// Contract: one string, computed at build time by cmake/GitVersion.cmake from `git describe`
// (the project's VERSION where the source has no git history), so `gpuconform version`, the
// reports' gpuconform_version and the Debian package's version are always the same text.
#pragma once

namespace gpuconform {

// Defined in the build tree's generated/version.cc.
extern const char* const kVersion;

}  // namespace gpuconform
