# Installs the perfgate build into a fresh prefix, then builds and runs two consumers: one
# with find_package(perfgate) and perfgate::probe, one C program with pkg-config
# perfgate-probe. Each must leave a report naming its region. Nothing is downloaded.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

function(expect_report path region)
  if(NOT EXISTS ${path})
    message(FATAL_ERROR "no report at ${path}")
  endif()
  file(READ ${path} report)
  string(JSON version GET "${report}" schema_version)
  string(JSON id GET "${report}" runs 0 regions 0 region_id)
  if(NOT version EQUAL 1 OR NOT id STREQUAL region)
    message(FATAL_ERROR "unexpected report ${path}:\n${report}")
  endif()
endfunction()

set(prefix ${WORK}/prefix)
run_step(${CMAKE_COMMAND} --install ${PERFGATE_BUILD} --prefix ${prefix})
# perfgate looks for perfgate-spawner beside its own executable (docs/measurement.md).
foreach(program perfgate perfgate-spawner)
  if(NOT EXISTS ${prefix}/bin/${program})
    message(FATAL_ERROR "cmake --install did not install bin/${program}")
  endif()
endforeach()

set(flags "")
if(SANITIZE)
  set(flags "-fsanitize=address,undefined")
endif()
run_step(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${WORK}/build -G ${GENERATOR}
  -DCMAKE_PREFIX_PATH=${prefix} "-DCMAKE_EXE_LINKER_FLAGS=${flags}")
run_step(${CMAKE_COMMAND} --build ${WORK}/build)
run_step(${CMAKE_COMMAND} -E env PERFGATE_PROBE_OUT=${WORK}/cmake.json ${WORK}/build/consumer)
expect_report(${WORK}/cmake.json consumer_region)

file(GLOB_RECURSE pc_files ${prefix}/perfgate-probe.pc)
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
run_step(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${pc_dir}
  pkg-config --cflags --libs perfgate-probe)
string(STRIP "${step_output}" pc_flags)
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
run_step(cc ${CONSUMER_SOURCE}/consumer.c -o ${WORK}/c_consumer ${pc_flags} ${flags})
run_step(${CMAKE_COMMAND} -E env PERFGATE_PROBE_OUT=${WORK}/pkg-config.json ${WORK}/c_consumer)
expect_report(${WORK}/pkg-config.json c_consumer_region)

file(REMOVE_RECURSE ${WORK})
