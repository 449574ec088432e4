# The man pages, gpuconform(1) and gpuconform-VERB(1) for each verb, written at build time from
# the program's own --help by help2man (cmake/GenerateManPages.cmake), so they never disagree
# with the binary. Without help2man the build goes on and installs no man pages.
find_program(GPUCONFORM_HELP2MAN help2man)
if(NOT GPUCONFORM_HELP2MAN)
  message(WARNING "gpuconform: no help2man (ci/install-deps installs it): no man pages are built or installed")
  return()
endif()
set(GPUCONFORM_MAN_DIR ${CMAKE_BINARY_DIR}/man)
add_custom_command(
  OUTPUT ${GPUCONFORM_MAN_DIR}/gpuconform.1.gz
  COMMAND ${CMAKE_COMMAND} -DBINARY=$<TARGET_FILE:gpuconform> -DHELP2MAN=${GPUCONFORM_HELP2MAN}
          -DGZIP=${GPUCONFORM_GZIP} -DINCLUDE_IN=${CMAKE_SOURCE_DIR}/packaging/gpuconform.h2m.in
          -DSHARE_DIR=${CMAKE_INSTALL_FULL_DATADIR}/gpuconform -DOUTPUT_DIR=${GPUCONFORM_MAN_DIR}
          -P ${CMAKE_SOURCE_DIR}/cmake/GenerateManPages.cmake
  DEPENDS gpuconform ${CMAKE_SOURCE_DIR}/packaging/gpuconform.h2m.in ${CMAKE_SOURCE_DIR}/cmake/GenerateManPages.cmake
  COMMENT "Writing the man pages from gpuconform's help"
  VERBATIM)
add_custom_target(gpuconform_man ALL DEPENDS ${GPUCONFORM_MAN_DIR}/gpuconform.1.gz)
install(DIRECTORY ${GPUCONFORM_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 FILES_MATCHING PATTERN "*.1.gz")
