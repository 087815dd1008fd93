# Registers the test binary's tests with CTest, a suite at a time: one process a suite runs its
# tests on one Vulkan context (lavapipe takes about half a second to make one, more than most
# tests take), except the suites named in SLOW_SUITES, whose tests run one a process so no
# single CTest test runs long. A suite named *Soak gets the label `soak` (not in scripts/test.sh).
# Run after each build of the test binary (tests/CMakeLists.txt):
#   cmake -D EXE=... -D OUT=... -D SLOW_SUITES="A;B" -D TIMEOUT=150 -D SOAK_TIMEOUT=900 -D TMP=dir -P group_tests.cmake
# Every test (and each vklab it starts) runs with glibc's malloc keeping what it frees, up to
# 32 MiB a block, and backing its heap by transparent huge pages. Lavapipe's device memory and
# staging copies are malloc'ed: with the defaults each large block is a fresh mmap, faulted in
# 4 KiB at a time and unmapped at free, a quarter of the suite's CPU in the kernel. Measured:
# `ctest -j2 -R "^(Cli|Labs)"` (57 tests) 84.8 s without, 59.4 s with, on 2 cores.
set(malloc "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967296:glibc.malloc.hugetlb=1")
# Every test's temporary files go to TMP (TMPDIR), made before the run and removed after it by
# the fixture vklab_tmp (tests/CMakeLists.txt): nothing is left in the system's /tmp.
set(common "ENVIRONMENT [==[${malloc};TMPDIR=${TMP}]==] FIXTURES_REQUIRED vklab_tmp")
execute_process(COMMAND "${EXE}" --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "${EXE} --gtest_list_tests failed: ${failed}")
endif()
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(script "")
set(suite "")
set(tests "")
macro(flush_suite)
  if(suite)
    string(REGEX MATCH "Soak$" soak "${suite}")
    # The hostile corpus and the kill and full-disk tests: label `hostile`, a test a process.
    string(REGEX MATCH "(/Hostile|^Durability)$" hostile "${suite}")
    list(FIND SLOW_SUITES "${suite}" slow_at)
    string(REGEX REPLACE "^.*/" "" bare "${suite}")  # a parametrised suite's name after its prefix
    list(FIND SLOW_SUITES "${bare}" bare_at)
    if(soak OR hostile OR slow_at GREATER -1 OR bare_at GREATER -1)
      set(names ${tests})
    else()
      set(names "*")
    endif()
    foreach(t ${names})
      if(t STREQUAL "*")
        set(name "${suite}")
      else()
        set(name "${suite}.${t}")
      endif()
      string(APPEND script "add_test([=[${name}]=] [=[${EXE}]=] [=[--gtest_filter=${suite}.${t}]=])\n")
      if(soak)
        string(APPEND script "set_tests_properties([=[${name}]=] PROPERTIES LABELS soak TIMEOUT ${SOAK_TIMEOUT} ${common})\n")
      elseif(hostile)
        string(APPEND script "set_tests_properties([=[${name}]=] PROPERTIES LABELS hostile TIMEOUT ${TIMEOUT} ${common})\n")
      else()
        string(APPEND script "set_tests_properties([=[${name}]=] PROPERTIES TIMEOUT ${TIMEOUT} ${common})\n")
      endif()
    endforeach()
  endif()
endmacro()
foreach(line ${lines})
  string(REGEX REPLACE "#.*" "" line "${line}")  # "  Name  # GetParam() = ..."
  string(STRIP "${line}" stripped)
  if(stripped STREQUAL "")
    continue()
  endif()
  if(line MATCHES "^ ")
    list(APPEND tests "${stripped}")
  elseif(stripped MATCHES "\\.$")  # a suite's line ends with '.' (gtest_main says hello first)
    flush_suite()
    string(REGEX REPLACE "\\.$" "" suite "${stripped}")
    set(tests "")
  endif()
endforeach()
flush_suite()
file(WRITE "${OUT}" "${script}")
