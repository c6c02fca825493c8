# Installs the perfgate build into a fresh prefix, then builds and runs its consumers: with
# find_package(perfgate), a C++ program (static probe), a shared library linking the static
# probe and a program using the shared variant; a C program with pkg-config perfgate-probe.
# Then configures the probe alone (-DPERFGATE_PROBE_ONLY=ON), installs only its component,
# and builds a pure C project against that. Each program must leave a report naming its
# region. Nothing is downloaded.
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
run_step(${CMAKE_COMMAND} -E env PERFGATE_PROBE_OUT=${WORK}/plugin.json ${WORK}/build/plugin_host)
expect_report(${WORK}/plugin.json plugin_region)
run_step(${CMAKE_COMMAND} -E env PERFGATE_PROBE_OUT=${WORK}/shared.json
  ${WORK}/build/shared_consumer ${WORK}/shared-flush.json)
expect_report(${WORK}/shared.json shared_region)
expect_report(${WORK}/shared-flush.json shared_region)
# The shared library exports the probe's API, not the standard library code it instantiates
# (src/probe/exports.map).
file(GLOB_RECURSE shared_probe ${prefix}/libperfgate_probe.so)
execute_process(COMMAND nm -D --defined-only -C ${shared_probe} RESULT_VARIABLE rc
  OUTPUT_VARIABLE exported ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT exported MATCHES "perfgate::probe::set_enabled")
  message(FATAL_ERROR "nm -D ${shared_probe} (${rc}):\n${exported}${err}")
endif()
string(REGEX MATCHALL "[^\n]+" exported_lines "${exported}")
foreach(line IN LISTS exported_lines)
  if(NOT line MATCHES "^[0-9a-f]+ [A-Za-z] perfgate")
    message(FATAL_ERROR "libperfgate_probe.so exports what is not the probe's: ${line}")
  endif()
endforeach()

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

# The build tree's pkg-config file, before any install: the same C program builds and runs.
run_step(${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${PERFGATE_BUILD}
  pkg-config --cflags --libs perfgate-probe)
string(STRIP "${step_output}" pc_flags)
if(NOT pc_flags MATCHES "${PERFGATE_BUILD}/libperfgate_probe.a")
  message(FATAL_ERROR "the build tree's pkg-config file names no library of the build tree: "
                      "${pc_flags}")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
run_step(cc ${CONSUMER_SOURCE}/consumer.c -o ${WORK}/c_consumer_build_tree ${pc_flags} ${flags})
run_step(${CMAKE_COMMAND} -E env PERFGATE_PROBE_OUT=${WORK}/build-tree.json
  ${WORK}/c_consumer_build_tree)
expect_report(${WORK}/build-tree.json c_consumer_region)

# The probe alone: configured without any of perfgate's other packages, its sources compiled
# as C++17 (the build above compiles them as C++20 where it can), installed as its own
# component (no programs), and used from a project that enables C only.
run_step(${CMAKE_COMMAND} -S ${PERFGATE_SOURCE} -B ${WORK}/probe-only -G ${GENERATOR}
  -DPERFGATE_PROBE_ONLY=ON -DPERFGATE_SANITIZE=${SANITIZE} -DPERFGATE_PROBE_CXX_STANDARD=17)
run_step(${CMAKE_COMMAND} --build ${WORK}/probe-only --verbose)
if(NOT step_output MATCHES "-std=c\\+\\+17" OR step_output MATCHES "-std=c\\+\\+20")
  message(FATAL_ERROR "the probe-only build did not compile the probe as C++17:\n${step_output}")
endif()
set(probe_prefix ${WORK}/probe-prefix)
run_step(${CMAKE_COMMAND} --install ${WORK}/probe-only --prefix ${probe_prefix}
  --component probe)
if(EXISTS ${probe_prefix}/bin)
  message(FATAL_ERROR "--component probe installed programs too")
endif()
run_step(${CMAKE_COMMAND} -S ${C_CONSUMER_SOURCE} -B ${WORK}/c-build -G ${GENERATOR}
  -DCMAKE_PREFIX_PATH=${probe_prefix} "-DCMAKE_EXE_LINKER_FLAGS=${flags}")
run_step(${CMAKE_COMMAND} --build ${WORK}/c-build)
run_step(${CMAKE_COMMAND} -E env PERFGATE_PROBE_OUT=${WORK}/c-cmake.json ${WORK}/c-build/c_consumer)
expect_report(${WORK}/c-cmake.json c_consumer_region)

file(REMOVE_RECURSE ${WORK})
