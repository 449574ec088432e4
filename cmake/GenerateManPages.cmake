# Writes the man pages (cmake -P, at build time, after the binary): gpuconform.1 from
# `gpuconform --help`, and gpuconform-VERB.1 from `gpuconform VERB --help` for each verb that
# `gpuconform complete verbs` lists, each through help2man and compressed with gzip -9n.
# Inputs: BINARY, HELP2MAN, GZIP, INCLUDE_IN (packaging/gpuconform.h2m.in), SHARE_DIR (the
# installed share/gpuconform, named in FILES), OUTPUT_DIR (emptied and written).
file(REMOVE_RECURSE ${OUTPUT_DIR})
file(MAKE_DIRECTORY ${OUTPUT_DIR}/work)
set(work ${OUTPUT_DIR}/work)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE failed OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(failed)
    list(JOIN ARGN " " command)
    message(FATAL_ERROR "${command} failed (${failed}): ${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# A page from PROGRAM's --help; NAME, the NAME line's description, may hold a ';' (a CMake list
# separator), so it is passed on quoted and never through a list.
# The version is given, not asked of PROGRAM, so help2man names the page after PROGRAM's file.
function(help2man name include output program)
  execute_process(COMMAND ${HELP2MAN} --no-info --section=1 "--name=${name}" --include=${include}
                          "--version-string=${version}"
                          --output=${output} ${program}
                  RESULT_VARIABLE failed ERROR_VARIABLE err)
  if(failed)
    message(FATAL_ERROR "help2man for ${program} failed (${failed}): ${err}")
  endif()
endfunction()

run(${BINARY} version)
string(REGEX REPLACE "^gpuconform ([^\n]+)\n?$" "\\1" version "${out}")
run(${BINARY} complete verbs)
string(REGEX MATCHALL "[^\n]+" verbs "${out}")
# NAME lines: each verb's one-line description, from the verb list of the top-level help
# ("  run   evaluate the suites ...").
run(${BINARY} --help)
set(help "${out}")

set(see_also "")
foreach(verb IN LISTS verbs)
  list(APPEND see_also "\\fBgpuconform\\-${verb}\\fR(1)")
endforeach()
list(JOIN see_also ",\n" see_also)
configure_file(${INCLUDE_IN} ${work}/gpuconform.h2m @ONLY)
file(APPEND ${work}/gpuconform.h2m "[SEE ALSO]\n${see_also}\n")
help2man("conformance tests for multi-node GPU clusters" ${work}/gpuconform.h2m ${work}/gpuconform.1 ${BINARY})

file(WRITE ${work}/verb.h2m "[SEE ALSO]\n\\fBgpuconform\\fR(1)\n")
foreach(verb IN LISTS verbs)
  set(name "")
  if(help MATCHES "\n  ${verb} +([^\n]+)")
    string(STRIP "${CMAKE_MATCH_1}" name)
  endif()
  if(name STREQUAL "")
    message(FATAL_ERROR "`gpuconform --help` lists no description of the verb ${verb}")
  endif()
  # help2man names the page after the program it runs, so each verb gets a program of its own
  # name that runs `gpuconform VERB`.
  file(WRITE ${work}/gpuconform-${verb} "#!/bin/sh\nexec '${BINARY}' ${verb} \"$@\"\n")
  file(CHMOD ${work}/gpuconform-${verb} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  help2man("${name}" ${work}/verb.h2m ${work}/gpuconform-${verb}.1 ${work}/gpuconform-${verb})
endforeach()

file(GLOB pages ${work}/*.1)
foreach(page IN LISTS pages)
  run(${GZIP} -9n ${page})
  get_filename_component(page_name ${page} NAME)
  file(RENAME ${page}.gz ${OUTPUT_DIR}/${page_name}.gz)
endforeach()
file(REMOVE_RECURSE ${work})
