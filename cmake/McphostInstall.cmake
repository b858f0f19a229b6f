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
