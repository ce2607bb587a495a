# ManPage.cmake - write mbdae.1 with help2man from the command's own help
# (cmake -DMBDAE=<mbdae> -DHELP2MAN=<help2man> -DOUT=<file> -P ManPage.cmake;
# run by the build, cmake/Docs.cmake). `mbdae --help` and `--version` give
# NAME, SYNOPSIS, DESCRIPTION and the options; every `mbdae help COMMAND`
# becomes a subsection of COMMANDS, verbatim; FILES and SEE ALSO name the
# installed scenarios and documents.
foreach(v MBDAE HELP2MAN OUT)
  if(NOT ${v})
    message(FATAL_ERROR "ManPage.cmake: -D${v}= is required")
  endif()
endforeach()

# roff-safe verbatim text: backslashes escaped, no line read as a request,
# '-' a minus (options copied from the page work)
function(roff_verbatim text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# SYNOPSIS: the usage lines of the command and of each subcommand (up to the
# first blank line of each help); COMMANDS: each help whole
set(synopsis "[SYNOPSIS]\n.nf\n")
set(commands "[COMMANDS]\n")
foreach(cmd "" run resume list validate sweep)
  if(cmd)
    set(args help ${cmd})
  else()
    set(args --help)
  endif()
  execute_process(COMMAND ${MBDAE} ${args} OUTPUT_VARIABLE help RESULT_VARIABLE rc
                  ERROR_VARIABLE stderr)
  if(NOT rc EQUAL 0 OR NOT help MATCHES "^usage: mbdae")
    message(FATAL_ERROR "ManPage.cmake: `mbdae ${args}` failed (${rc}): ${stderr}")
  endif()
  roff_verbatim("${help}" help)
  string(FIND "${help}" "\n\n" end)
  string(SUBSTRING "${help}" 0 ${end} usage)
  string(REGEX REPLACE "^usage: " "" usage "${usage}")
  string(APPEND synopsis "${usage}\n")
  if(cmd)
    string(APPEND commands ".SS \"mbdae ${cmd}\"\n.nf\n${help}.fi\n")
  endif()
endforeach()
string(APPEND synopsis ".fi\n")
set(include "${synopsis}${commands}")
string(APPEND include "[FILES]\n"
  ".TP\n.I <prefix>/share/mbdae/scenarios/\n"
  "the shipped scenarios, found by name (\\fBmbdae run ball\\fR)\n"
  ".TP\n.I <prefix>/share/doc/mbdae/\n"
  "the documents: user-guide.md, cli.md, scenario-format.md, scenario-reference.md, "
  "python.md, first-model-kind.md, paraview.md, install.md and one per model\n"
  "[SEE ALSO]\n"
  "The user guide, \\fI<prefix>/share/doc/mbdae/user-guide.md\\fR; "
  "the scenario keys, \\fBmbdae list --markdown\\fR.\n")
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
file(WRITE ${OUT}.include "${include}")
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr
                  --name "simulate constrained multibody systems with non-smooth events"
                  --include ${OUT}.include --output ${OUT}.tmp ${MBDAE}
                RESULT_VARIABLE rc ERROR_VARIABLE stderr)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ManPage.cmake: help2man failed (${rc}): ${stderr}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
