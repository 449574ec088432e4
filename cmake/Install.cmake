# What `cmake --install` puts where (GNUInstallDirs), the layout of the Debian package too
# (cmake/Package.cmake):
#   bin/gpuconform                             the one program: the processes it starts (the
#                                              checkpoint writer, the NCCL worker, launch's srun
#                                              step) are itself again through /proc/self/exe, and
#                                              the profiles and the torchrun worker are compiled in
#   share/gpuconform/profiles/*.yaml           the built-in profiles, to copy as a site's own
#   share/gpuconform/schemas/*.schema.json     the results and baseline documents' schemas
#   share/gpuconform/slurm/                    the sbatch template, the fleet script, the
#                                              HealthCheckProgram wrapper and slurm.conf lines
#   share/man/man1/gpuconform*.1.gz            from the program's own help (cmake/ManPages.cmake)
#   share/bash-completion/completions/gpuconform
#   share/doc/gpuconform/                      copyright and changelog.gz
# Nothing installed names the source or build tree: the program finds nothing on disk.
include(GNUInstallDirs)

install(TARGETS gpuconform RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(GPUCONFORM_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/gpuconform)
install(FILES ${GPUCONFORM_PROFILE_FILES} DESTINATION ${GPUCONFORM_SHARE_DIR}/profiles)
file(GLOB GPUCONFORM_SCHEMA_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/schemas/*.json)
install(FILES ${GPUCONFORM_SCHEMA_FILES} DESTINATION ${GPUCONFORM_SHARE_DIR}/schemas)
# The scripts are executable (the sbatch template too, since it is a bash script, as Debian's
# policy has it); the slurm.conf lines are text.
install(PROGRAMS ${CMAKE_SOURCE_DIR}/ci/slurm/gpuconform.sbatch ${CMAKE_SOURCE_DIR}/ci/slurm/gpuconform-fleet
                 ${CMAKE_SOURCE_DIR}/ci/slurm/gpuconform-health-check
        DESTINATION ${GPUCONFORM_SHARE_DIR}/slurm)
install(FILES ${CMAKE_SOURCE_DIR}/ci/slurm/slurm.conf.example DESTINATION ${GPUCONFORM_SHARE_DIR}/slurm)

install(FILES ${CMAKE_SOURCE_DIR}/packaging/gpuconform.bash-completion
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME gpuconform)

# The package maintainer, also the changelog's; a site packaging its own build sets its own.
set(GPUCONFORM_PACKAGE_MAINTAINER "gpuconform maintainers <gpuconform@example.org>"
    CACHE STRING "Maintainer: of the Debian package and its changelog, \"Name <address>\"")
find_program(GPUCONFORM_GZIP gzip REQUIRED)
set(GPUCONFORM_CHANGELOG ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(
  OUTPUT ${GPUCONFORM_CHANGELOG}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/packaging
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -DVERSION_TXT=${GPUCONFORM_VERSION_TXT}
          "-DMAINTAINER=${GPUCONFORM_PACKAGE_MAINTAINER}" -DGZIP=${GPUCONFORM_GZIP} -DOUTPUT=${GPUCONFORM_CHANGELOG}
          -P ${CMAKE_SOURCE_DIR}/cmake/DebianChangelog.cmake
  DEPENDS ${GPUCONFORM_VERSION_TXT} ${CMAKE_SOURCE_DIR}/cmake/DebianChangelog.cmake
  COMMENT "Writing the Debian changelog"
  VERBATIM)
add_custom_target(gpuconform_changelog ALL DEPENDS ${GPUCONFORM_CHANGELOG})
install(FILES ${CMAKE_SOURCE_DIR}/packaging/copyright ${GPUCONFORM_CHANGELOG} DESTINATION ${CMAKE_INSTALL_DOCDIR})

include(${CMAKE_SOURCE_DIR}/cmake/ManPages.cmake)
