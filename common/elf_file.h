/* What a shared object file says of itself, read from the file (no
 * loader involved): whether what it asks to be mapped is there at all
 * (the plugin loader's check before dlopen(), which would die of SIGBUS
 * on a file cut short), and for `mcphost plugin check` the symbols it
 * exports, the symbols it needs from elsewhere and the libraries it
 * names. The file is untrusted: every offset and size is
 * checked against the file's length before it is read, and a file that
 * does not add up is refused with the reason. Only the machine's own ELF
 * class and byte order are read (the loader refuses the others anyway).
 * Pure: no global state; any thread. */
#ifndef MCPHOST_ELF_FILE_H
#define MCPHOST_ELF_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

typedef struct elf_names {
  char **v; /* each a new string */
  size_t n;
  size_t cap; /* room in v */
} elf_names;

typedef struct elf_info {
  /* Defined dynamic symbols another object can bind to (global or weak,
   * default or protected visibility), without the linker's own
   * (_init, _fini, _edata, _end, __bss_start). */
  elf_names exports;
  /* Undefined dynamic symbols that are not weak: each must be found in
   * a library the file needs (or the process) when it is loaded. */
  elf_names needs;
  elf_names libraries; /* DT_NEEDED */
} elf_info;

/* Whether every segment the file asks to be loaded lies within it, and
 * it is an ELF file of this machine's class and byte order: 0, or -1
 * with the reason in `why`. `fd` is open for reading; its offset is not
 * used. */
int elf_check_loadable(int fd, char *why, size_t n);

/* Reads the open file `fd` (its offset is not used). 0 and *out filled
 * (elf_info_free it), or -1 with the reason in `why`. */
int elf_info_read(int fd, elf_info *out, char *why, size_t n);
void elf_info_free(elf_info *e);

/* The descriptor of the note named `owner` of type `type` in the file's
 * note segments (PT_NOTE, read from the program headers: a stripped file
 * keeps them). 1 with *out a new NUL-terminated copy (its length in
 * *len), 0 when the file has no such note, -1 with the reason in `why`
 * when its headers or notes do not add up. */
int elf_note_read(int fd, const char *owner, uint32_t type, char **out,
                  size_t *len, char *why, size_t n);

/* elf_check_loadable, then (`owner` not NULL) the note elf_note_read
 * would give, from one read of the file's head. `st`: the file's status
 * when the caller has it (NULL: taken here). -1 with the reason in `why`
 * when the file is not loadable; else 0, with *note a new copy of the
 * note (its length in *len), or NULL when there is none or its headers
 * or notes do not add up. */
int elf_check_note(int fd, const struct stat *st, const char *owner,
                   uint32_t type, char **note, size_t *len, char *why,
                   size_t n);

#endif
