# Read by cpack when it runs (CPACK_PROJECT_CONFIG_FILE), after the build: the package takes
# the version the build compiled in (generated/version.txt, cmake/GitVersion.cmake), not the
# one of the last configure, so the package and `gpuconform version` always agree.
if(NOT EXISTS "${CPACK_GPUCONFORM_VERSION_TXT}")
  message(FATAL_ERROR "no ${CPACK_GPUCONFORM_VERSION_TXT}: build gpuconform before packaging it")
endif()
file(STRINGS "${CPACK_GPUCONFORM_VERSION_TXT}" CPACK_PACKAGE_VERSION LIMIT_COUNT 1)
set(CPACK_DEBIAN_PACKAGE_VERSION "${CPACK_PACKAGE_VERSION}")
