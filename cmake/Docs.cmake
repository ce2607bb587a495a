# Documents a user reads after install (doc/install.md):
#   <prefix>/share/doc/mbdae/*.md, images/, README.md   the documents the help texts name
#   <prefix>/share/man/man1/mbdae.1                      `man mbdae`: every command's help,
#                                                        generated from it by help2man
#   <prefix>/share/bash-completion/completions/mbdae     bash completion (scripts/completion)
# The man page is written at build time from the command just built
# (cmake/ManPage.cmake), so it cannot drift from `mbdae --help`; without
# help2man (Debian package help2man) the build says so and installs none.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/doc/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        FILES_MATCHING PATTERN "*.md" PATTERN "*.png")
# the README's links into doc/ point next to it once installed
file(READ ${PROJECT_SOURCE_DIR}/README.md MBDAE_README)
string(REPLACE "](doc/" "](" MBDAE_README "${MBDAE_README}")
file(WRITE ${PROJECT_BINARY_DIR}/doc/README.md "${MBDAE_README}")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/README.md)
install(FILES ${PROJECT_BINARY_DIR}/doc/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

install(FILES ${PROJECT_SOURCE_DIR}/scripts/completion/mbdae.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME mbdae)

find_program(MBDAE_HELP2MAN help2man)
if(TARGET mbdae_cli AND MBDAE_HELP2MAN)
  set(MBDAE_MAN_PAGE ${PROJECT_BINARY_DIR}/man/mbdae.1)
  add_custom_command(OUTPUT ${MBDAE_MAN_PAGE}
    COMMAND ${CMAKE_COMMAND} -DMBDAE=$<TARGET_FILE:mbdae_cli> -DHELP2MAN=${MBDAE_HELP2MAN}
            -DOUT=${MBDAE_MAN_PAGE} -P ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
    DEPENDS mbdae_cli ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
    COMMENT "man page mbdae.1 from the help texts (help2man)" VERBATIM)
  add_custom_target(mbdae_man ALL DEPENDS ${MBDAE_MAN_PAGE})
  install(FILES ${MBDAE_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
elseif(TARGET mbdae_cli)
  message(STATUS "help2man not found: no man page (Debian package help2man)")
endif()
