# Writes OUTPUT, a C++ file defining gpuconform::BuiltinProfiles() from topologies/*.yaml.
file(GLOB profiles ${SOURCE_DIR}/topologies/*.yaml)
list(SORT profiles)
set(body "")
foreach(path IN LISTS profiles)
  get_filename_component(name ${path} NAME_WE)
  file(READ ${path} text)
  string(APPEND body "      {\"${name}\", \"topologies/${name}.yaml\", R\"GPUCONFORM_YAML(${text})GPUCONFORM_YAML\"},\n")
endforeach()
file(WRITE ${OUTPUT}.tmp "// Generated from topologies/*.yaml by cmake/EmbedProfiles.cmake. Do not edit.
#include \"harness/core/profile.h\"

namespace gpuconform {

const std::vector<BuiltinProfile>& BuiltinProfiles() {
  static const std::vector<BuiltinProfile> kProfiles = {
${body}  };
  return kProfiles;
}

}  // namespace gpuconform
")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
