# cmake -DSCRATCH=<dir> -P CheckTestScratch.cmake - run by ctest after every
# test that uses the scratch directory (cmake/TestScratch.cmake): fails, naming
# them, if test scratch directories are left, i.e. a test failed (and kept its
# scratch to look at) or a passing test no longer removes what it made.
file(GLOB left LIST_DIRECTORIES true ${SCRATCH}/mbdae-test-* ${SCRATCH}/mbdae_study_*)
if(left)
  list(LENGTH left n)
  string(REPLACE ";" "\n  " names "${left}")
  message(FATAL_ERROR "${n} test scratch directories left in ${SCRATCH}:\n  ${names}")
endif()
message(STATUS "no test scratch left in ${SCRATCH}")
