# A stub plugin's note, read out of every plugin file at start: its text
# and the ELF note reader (common/plugin_note.h, common/elf_file.h).
mcph_fuzz_target(plugin_note
                 SOURCES fuzz_plugin_note.c
                         ${CMAKE_SOURCE_DIR}/common/plugin_note.c
                         ${CMAKE_SOURCE_DIR}/common/elf_file.c
                 LIBS mcphost_strbuf mcphost_alloc mcphost_sdk)
