# Every test's temporary files go under the build tree (TMPDIR), not /tmp: a
# passing CUnit test removes its own scratch (tests/testutil.c), a failing one
# leaves it there to look at, and removing the build tree removes the rest, so
# runs of the suite do not fill a shared machine's /tmp. The fixture makes the
# directory before any test needs it and, after the last, checks that nothing
# is left behind (cmake/CheckTestScratch.cmake). Each directory that registers
# tests calls mbdae_scratch_tests() after its last add_test (set_property(TEST)
# reaches only the current directory's tests).
set(MBDAE_TEST_TMPDIR ${PROJECT_BINARY_DIR}/test-tmp)
add_test(NAME test_scratch_dir COMMAND ${CMAKE_COMMAND} -E make_directory ${MBDAE_TEST_TMPDIR})
set_tests_properties(test_scratch_dir PROPERTIES FIXTURES_SETUP mbdae_scratch)
add_test(NAME test_scratch_left COMMAND ${CMAKE_COMMAND} -DSCRATCH=${MBDAE_TEST_TMPDIR}
         -P ${CMAKE_CURRENT_LIST_DIR}/CheckTestScratch.cmake)
set_tests_properties(test_scratch_left PROPERTIES FIXTURES_CLEANUP mbdae_scratch)

function(mbdae_scratch_tests)
  get_property(dir_tests DIRECTORY PROPERTY TESTS)
  foreach(t ${dir_tests})
    set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT TMPDIR=${MBDAE_TEST_TMPDIR})
    set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED mbdae_scratch)
  endforeach()
endfunction()
