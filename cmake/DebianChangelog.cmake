# Writes the Debian changelog the package carries (cmake -P, at build time, after the version):
# one entry for the version this build has, dated by its commit, compressed as Debian's policy
# asks (gzip -9n: no name or time stamp in the header, so the same commit gives the same bytes).
# The project's own history is its git log; this file only satisfies the package format.
# Inputs: SOURCE_DIR, VERSION_TXT (generated/version.txt), MAINTAINER, GZIP, OUTPUT (changelog.gz).
file(STRINGS ${VERSION_TXT} version LIMIT_COUNT 1)
set(date "")
find_package(Git QUIET)
if(GIT_EXECUTABLE AND EXISTS ${SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} log -1 --format=%cD WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE date OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(date STREQUAL "")
  # No git: the build's own time, in the RFC 2822 form dpkg-parsechangelog reads.
  string(TIMESTAMP date "%a, %d %b %Y %H:%M:%S +0000" UTC)
endif()
get_filename_component(plain ${OUTPUT} NAME_WLE)
get_filename_component(dir ${OUTPUT} DIRECTORY)
file(WRITE ${dir}/${plain}
"gpuconform (${version}) unstable; urgency=medium

  * gpuconform ${version}.
  * The project's history is its git log.

 -- ${MAINTAINER}  ${date}
")
execute_process(COMMAND ${GZIP} -9nf ${dir}/${plain} RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "gzip -9n ${dir}/${plain} failed")
endif()
