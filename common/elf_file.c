#include "elf_file.h"

#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define OWN_DATA ELFDATA2LSB
#else
#define OWN_DATA ELFDATA2MSB
#endif
#if __SIZEOF_POINTER__ == 8
#define OWN_CLASS ELFCLASS64
#define ST_BIND ELF64_ST_BIND
#define ST_TYPE ELF64_ST_TYPE
#define ST_VISIBILITY ELF64_ST_VISIBILITY
#else
#define OWN_CLASS ELFCLASS32
#define ST_BIND ELF32_ST_BIND
#define ST_TYPE ELF32_ST_TYPE
#define ST_VISIBILITY ELF32_ST_VISIBILITY
#endif

/* The machine's own ELF structs. */
typedef ElfW(Ehdr) elf_ehdr;
typedef ElfW(Shdr) elf_shdr;
typedef ElfW(Sym) elf_sym;
typedef ElfW(Dyn) elf_dyn;
typedef ElfW(Phdr) elf_phdr;

typedef struct image {
  const unsigned char *data;
  size_t size;
} image;

/* Whether [off, off + len) lies in the file. */
static bool inside(const image *im, uint64_t off, uint64_t len) {
  return off <= im->size && len <= im->size - off;
}

/* The string at `off` of the string table `strtab`, or NULL when it does
 * not end inside the table. */
static const char *string_at(const image *im, const elf_shdr *strtab,
                             uint64_t off) {
  if (off >= strtab->sh_size) {
    return NULL;
  }
  const char *s = (const char *)im->data + strtab->sh_offset + off;
  return memchr(s, '\0', strtab->sh_size - off) ? s : NULL;
}

static void add_name(elf_names *l, const char *s) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->v = xrealloc(l->v, l->cap * sizeof *l->v);
  }
  l->v[l->n++] = xstrdup(s);
}

static bool linker_symbol(const char *s) {
  static const char *const own[] = {"_init", "_fini", "_edata", "_end",
                                    "__bss_start"};
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
    if (strcmp(s, own[i]) == 0) {
      return true;
    }
  }
  return false;
}

/* The section `link` names as a string table, or NULL. */
static const elf_shdr *linked_strtab(const image *im, const elf_shdr *sh,
                                     size_t nsh, size_t link) {
  if (link == 0 || link >= nsh || sh[link].sh_type != SHT_STRTAB ||
      !inside(im, sh[link].sh_offset, sh[link].sh_size)) {
    return NULL;
  }
  return &sh[link];
}

static int read_symbols(const image *im, const elf_shdr *sh, size_t nsh,
                        const elf_shdr *sec, elf_info *out, char *why,
                        size_t n) {
  const elf_shdr *str = linked_strtab(im, sh, nsh, sec->sh_link);
  if (!str || sec->sh_entsize != sizeof(elf_sym) ||
      !inside(im, sec->sh_offset, sec->sh_size)) {
    snprintf(why, n, "its dynamic symbol table is malformed");
    return -1;
  }
  size_t count = sec->sh_size / sizeof(elf_sym);
  for (size_t i = 1; i < count; i++) { /* 0 is the null symbol */
    elf_sym sym;
    memcpy(&sym, im->data + sec->sh_offset + i * sizeof sym, sizeof sym);
    const char *name = string_at(im, str, sym.st_name);
    unsigned bind = ST_BIND(sym.st_info), type = ST_TYPE(sym.st_info);
    if (!name || !*name || type == STT_SECTION || type == STT_FILE ||
        (bind != STB_GLOBAL && bind != STB_WEAK)) {
      continue;
    }
    if (sym.st_shndx == SHN_UNDEF) {
      if (bind == STB_GLOBAL) {
        add_name(&out->needs, name);
      }
    } else if ((ST_VISIBILITY(sym.st_other) == STV_DEFAULT ||
                ST_VISIBILITY(sym.st_other) == STV_PROTECTED) &&
               !linker_symbol(name)) {
      add_name(&out->exports, name);
    }
  }
  return 0;
}

static int read_needed(const image *im, const elf_shdr *sh, size_t nsh,
                       const elf_shdr *sec, elf_info *out, char *why,
                       size_t n) {
  const elf_shdr *str = linked_strtab(im, sh, nsh, sec->sh_link);
  if (!str || !inside(im, sec->sh_offset, sec->sh_size)) {
    snprintf(why, n, "its dynamic section is malformed");
    return -1;
  }
  size_t count = sec->sh_size / sizeof(elf_dyn);
  for (size_t i = 0; i < count; i++) {
    elf_dyn d;
    memcpy(&d, im->data + sec->sh_offset + i * sizeof d, sizeof d);
    if (d.d_tag == DT_NULL) {
      break;
    }
    const char *name =
        d.d_tag == DT_NEEDED ? string_at(im, str, d.d_un.d_val) : NULL;
    if (name) {
      add_name(&out->libraries, name);
    }
  }
  return 0;
}

/* The file's ELF header, if it is one of this machine's. */
static int read_header(const image *im, elf_ehdr *eh, char *why, size_t n) {
  if (im->size < sizeof *eh) {
    snprintf(why, n, "too short for an ELF file");
    return -1;
  }
  memcpy(eh, im->data, sizeof *eh);
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) {
    snprintf(why, n, "not an ELF file");
    return -1;
  }
  if (eh->e_ident[EI_CLASS] != OWN_CLASS || eh->e_ident[EI_DATA] != OWN_DATA) {
    snprintf(why, n, "an ELF file of another class or byte order");
    return -1;
  }
  return 0;
}

static int read_image(const image *im, elf_info *out, char *why, size_t n) {
  elf_ehdr eh;
  if (read_header(im, &eh, why, n) != 0) {
    return -1;
  }
  if (eh.e_shentsize != sizeof(elf_shdr) || eh.e_shnum == 0 ||
      !inside(im, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(elf_shdr)) ||
      eh.e_shoff % _Alignof(elf_shdr) != 0) {
    snprintf(why, n, "its section headers are missing or malformed");
    return -1;
  }
  const elf_shdr *sh = (const void *)(im->data + eh.e_shoff);
  for (size_t i = 0; i < eh.e_shnum; i++) {
    int rc = 0;
    if (sh[i].sh_type == SHT_DYNSYM) {
      rc = read_symbols(im, sh, eh.e_shnum, &sh[i], out, why, n);
    } else if (sh[i].sh_type == SHT_DYNAMIC) {
      rc = read_needed(im, sh, eh.e_shnum, &sh[i], out, why, n);
    }
    if (rc != 0) {
      return -1;
    }
  }
  return 0;
}

int elf_info_read(int fd, elf_info *out, char *why, size_t n) {
  memset(out, 0, sizeof *out);
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    snprintf(why, n, "not a regular file with content");
    return -1;
  }
  size_t size = (size_t)st.st_size;
  void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) {
    snprintf(why, n, "cannot map it");
    return -1;
  }
  image im = {map, size};
  int rc = read_image(&im, out, why, n);
  munmap(map, size);
  if (rc != 0) {
    elf_info_free(out);
  }
  return rc;
}

/* The file's first bytes, its ELF header checked: one pread() reads the
 * program headers and notes too when they lie there, as a plugin's do
 * (its dozen program headers and its notes end before byte 1300), where
 * a read each took three system calls. Read, not mapped: the loader's
 * process must not die of SIGBUS should the file shrink meanwhile. */
enum { HEAD_BYTES = 2048 };
typedef struct head {
  struct stat st;
  elf_ehdr eh;
  size_t len; /* bytes of b read */
  unsigned char b[HEAD_BYTES];
} head;

/* `st`: the file's status when the caller has it (NULL: taken here). */
static int read_head(int fd, const struct stat *st, head *h, char *why,
                     size_t n) {
  if (st) {
    h->st = *st;
  } else if (fstat(fd, &h->st) != 0) {
    h->st.st_mode = 0;
  }
  if (!S_ISREG(h->st.st_mode)) {
    snprintf(why, n, "not a regular file");
    return -1;
  }
  ssize_t got = pread(fd, h->b, sizeof h->b, 0);
  h->len = got > 0 ? (size_t)got : 0;
  image im = {h->b, h->len >= sizeof h->eh ? sizeof h->eh : 0};
  return read_header(&im, &h->eh, why, n);
}

/* The file's bytes [off, off + len) in `dst`: from the head when they
 * lie in it, else read. 0, or -1 when they cannot be read. */
static int file_bytes(int fd, const head *h, void *dst, size_t len,
                      uint64_t off) {
  if (off <= h->len && len <= h->len - off) {
    memcpy(dst, h->b + off, len);
    return 0;
  }
  return pread(fd, dst, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* Whether every segment the head says is to be loaded lies in the file. */
static int head_loadable(int fd, const head *h, char *why, size_t n) {
  image im = {NULL, (size_t)h->st.st_size};
  if (h->eh.e_phentsize != sizeof(elf_phdr) ||
      !inside(&im, h->eh.e_phoff, (uint64_t)h->eh.e_phnum * sizeof(elf_phdr))) {
    snprintf(why, n, "its program headers are missing or cut short");
    return -1;
  }
  for (size_t i = 0; i < h->eh.e_phnum; i++) {
    elf_phdr ph;
    if (file_bytes(fd, h, &ph, sizeof ph, h->eh.e_phoff + i * sizeof ph) != 0) {
      snprintf(why, n, "its program headers cannot be read");
      return -1;
    }
    if ((ph.p_type == PT_LOAD || ph.p_type == PT_DYNAMIC) &&
        !inside(&im, ph.p_offset, ph.p_filesz)) {
      snprintf(why, n,
               "it is cut short: %zu bytes, and a segment it asks to be "
               "loaded ends at byte %llu",
               im.size,
               (unsigned long long)ph.p_offset +
                   (unsigned long long)ph.p_filesz);
      return -1;
    }
  }
  return 0;
}

static void free_names(elf_names *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->v[i]);
  }
  free(l->v);
  l->v = NULL;
  l->n = l->cap = 0;
}

void elf_info_free(elf_info *e) {
  free_names(&e->exports);
  free_names(&e->needs);
  free_names(&e->libraries);
}

/* A note's fields are 4-byte aligned in a 32- and a 64-bit file alike
 * (the notes a linker makes of .note.* sections). */
static size_t note_align(size_t v) {
  return (v + 3) & ~(size_t)3;
}

/* The note of `owner` and `type` in the segment `seg` of `len` bytes. */
static int find_note(const unsigned char *seg, size_t len, const char *owner,
                     uint32_t type, char **out, size_t *out_len) {
  size_t olen = strlen(owner) + 1;
  size_t at = 0;
  while (len - at >= sizeof(ElfW(Nhdr))) {
    ElfW(Nhdr) nh;
    memcpy(&nh, seg + at, sizeof nh);
    at += sizeof nh;
    size_t name_room = note_align(nh.n_namesz);
    if (nh.n_namesz > len - at || name_room > len - at) {
      return -1;
    }
    const unsigned char *name = seg + at;
    at += name_room;
    size_t desc_room = note_align(nh.n_descsz);
    if (nh.n_descsz > len - at || desc_room > len - at) {
      return -1;
    }
    if (nh.n_type == type && nh.n_namesz == olen &&
        memcmp(name, owner, olen) == 0) {
      *out = xmalloc(nh.n_descsz + 1);
      memcpy(*out, seg + at, nh.n_descsz);
      (*out)[nh.n_descsz] = '\0';
      *out_len = nh.n_descsz;
      return 1;
    }
    at += desc_room;
  }
  return 0;
}

/* The note of `owner` and `type` in the file whose head is `h`: 1 with
 * *out, 0 when it has none, -1 with the reason when its program headers
 * or notes do not add up. */
static int head_note(int fd, const head *h, const char *owner, uint32_t type,
                     char **out, size_t *len, char *why, size_t n) {
  enum { MAX_PHDRS = 64, MAX_NOTES = 64 * 1024 };
  image im = {NULL, (size_t)h->st.st_size};
  size_t phsize = (size_t)h->eh.e_phnum * sizeof(elf_phdr);
  if (h->eh.e_phentsize != sizeof(elf_phdr) || h->eh.e_phnum > MAX_PHDRS ||
      !inside(&im, h->eh.e_phoff, phsize)) {
    snprintf(why, n, "its program headers are missing or cut short");
    return -1;
  }
  for (size_t i = 0; i < h->eh.e_phnum; i++) {
    elf_phdr ph;
    if (file_bytes(fd, h, &ph, sizeof ph, h->eh.e_phoff + i * sizeof ph) != 0) {
      snprintf(why, n, "its program headers are missing or cut short");
      return -1;
    }
    if (ph.p_type != PT_NOTE) {
      continue;
    }
    if (ph.p_filesz > MAX_NOTES || !inside(&im, ph.p_offset, ph.p_filesz)) {
      snprintf(why, n, "a note segment is cut short or too large");
      return -1;
    }
    size_t seglen = (size_t)ph.p_filesz;
    unsigned char *copy = NULL;
    const unsigned char *seg;
    if (ph.p_offset <= h->len && seglen <= h->len - ph.p_offset) {
      seg = h->b + ph.p_offset; /* in the head */
    } else {
      seg = copy = xmalloc(seglen ? seglen : 1);
      if (pread(fd, copy, seglen, (off_t)ph.p_offset) != (ssize_t)seglen) {
        seg = NULL;
      }
    }
    int rc = seg ? find_note(seg, seglen, owner, type, out, len) : -1;
    free(copy);
    if (rc != 0) {
      if (rc < 0) {
        snprintf(why, n, "a note segment is malformed");
      }
      return rc;
    }
  }
  return 0;
}

int elf_note_read(int fd, const char *owner, uint32_t type, char **out,
                  size_t *len, char *why, size_t n) {
  head h;
  *out = NULL;
  *len = 0;
  if (read_head(fd, NULL, &h, why, n) != 0) {
    return -1;
  }
  return head_note(fd, &h, owner, type, out, len, why, n);
}

int elf_check_note(int fd, const struct stat *st, const char *owner,
                   uint32_t type, char **note, size_t *len, char *why,
                   size_t n) {
  head h;
  if (note) {
    *note = NULL;
    *len = 0;
  }
  if (read_head(fd, st, &h, why, n) != 0 ||
      head_loadable(fd, &h, why, n) != 0) {
    return -1;
  }
  if (owner && note) {
    char ignored[8]; /* a note that does not add up is no note */
    head_note(fd, &h, owner, type, note, len, ignored, sizeof ignored);
  }
  return 0;
}

int elf_check_loadable(int fd, char *why, size_t n) {
  return elf_check_note(fd, NULL, NULL, 0, NULL, NULL, why, n);
}
