# What `cmake --install` puts into the prefix besides the programs, the
# plugins and the SDK (which their own directories install): the manual
# pages and the documentation. Test programs, fixtures and benchmark
# drivers are never installed.

# Every page docs/man holds, into share/man/man1.
file(GLOB MCPHOST_MAN_PAGES CONFIGURE_DEPENDS
     "${PROJECT_SOURCE_DIR}/docs/man/*.1")
if(MCPHOST_MAN_PAGES)
  install(FILES ${MCPHOST_MAN_PAGES} DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
endif()

# share/doc/mcphost keeps the source tree's layout, so the documents' links
# to one another still lead somewhere: README.md, docs/*.md, sdk/README.md
# and the example plugins a third party starts from.
file(GLOB MCPHOST_DOCS CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/docs/*.md")
install(FILES "${PROJECT_SOURCE_DIR}/README.md"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(FILES ${MCPHOST_DOCS} DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs")
install(FILES "${PROJECT_SOURCE_DIR}/sdk/README.md"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}/sdk")
# Each example's own files, not what building it in place left there.
file(GLOB MCPHOST_EXAMPLES CONFIGURE_DEPENDS
     LIST_DIRECTORIES true "${PROJECT_SOURCE_DIR}/examples/plugins/*")
foreach(dir ${MCPHOST_EXAMPLES})
  if(NOT IS_DIRECTORY "${dir}")
    continue()
  endif()
  get_filename_component(name "${dir}" NAME)
  file(GLOB files CONFIGURE_DEPENDS "${dir}/*.c" "${dir}/*.h" "${dir}/*.md"
       "${dir}/CMakeLists.txt")
  install(FILES ${files}
          DESTINATION "${CMAKE_INSTALL_DOCDIR}/examples/plugins/${name}")
endforeach()
# The programs that embed the client library (docs/embedding.md).
install(FILES "${PROJECT_SOURCE_DIR}/examples/embed/call.c"
              "${PROJECT_SOURCE_DIR}/examples/embed/inproc.c"
              "${PROJECT_SOURCE_DIR}/examples/embed/loop.c"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}/examples/embed")
install(FILES "${PROJECT_SOURCE_DIR}/examples/embed/python/call.py"
              "${PROJECT_SOURCE_DIR}/examples/embed/python/mcphost.py"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}/examples/embed/python")

# The shell completion scripts, where each shell finds a package's own:
# what `mcphost completion SHELL` prints, written by the built binary at
# build time, so the installed scripts are those of the installed
# options. (A cross build would need CMAKE_CROSSCOMPILING_EMULATOR.)
# STRINGs relative to the prefix, as the install directories are: a PATH
# given on the command line without a type would be made absolute.
set(MCPHOST_BASH_COMPLETION_DIR
    "${CMAKE_INSTALL_DATADIR}/bash-completion/completions" CACHE STRING
    "Where bash-completion finds the mcphost script")
set(MCPHOST_ZSH_COMPLETION_DIR "${CMAKE_INSTALL_DATADIR}/zsh/site-functions"
    CACHE STRING "Where zsh finds _mcphost (Debian: share/zsh/vendor-completions)")
set(MCPHOST_FISH_COMPLETION_DIR
    "${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d" CACHE STRING
    "Where fish finds mcphost.fish")
set(_comp "${CMAKE_BINARY_DIR}/completions")
add_custom_command(
  OUTPUT "${_comp}/mcphost" "${_comp}/_mcphost" "${_comp}/mcphost.fish"
  COMMAND ${CMAKE_COMMAND} -E make_directory "${_comp}"
  COMMAND mcphost-cli completion bash > "${_comp}/mcphost"
  COMMAND mcphost-cli completion zsh > "${_comp}/_mcphost"
  COMMAND mcphost-cli completion fish > "${_comp}/mcphost.fish"
  DEPENDS mcphost-cli
  COMMENT "Writing the bash, zsh and fish completion scripts")
add_custom_target(mcphost-completions ALL
  DEPENDS "${_comp}/mcphost" "${_comp}/_mcphost" "${_comp}/mcphost.fish")
install(FILES "${_comp}/mcphost" DESTINATION "${MCPHOST_BASH_COMPLETION_DIR}")
install(FILES "${_comp}/_mcphost" DESTINATION "${MCPHOST_ZSH_COMPLETION_DIR}")
install(FILES "${_comp}/mcphost.fish"
        DESTINATION "${MCPHOST_FISH_COMPLETION_DIR}")
