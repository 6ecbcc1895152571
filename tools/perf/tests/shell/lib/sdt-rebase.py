#!/usr/bin/env python3
# sdt-rebase.py IN OUT DELTA: a copy of a 64-bit little-endian ELF whose SDT
# notes were written for an image DELTA bytes lower (pc, base and semaphore
# all minus DELTA), as a binary prelinked or relocated after its notes were
# made looks (a negative DELTA: written for a higher image): .stapsdt.base's real address then tells how far to move them.
import struct
import sys

src, dst, delta = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
d = bytearray(open(src, 'rb').read())
if d[:4] != b'\x7fELF' or d[4] != 2 or d[5] != 1:
    sys.exit('not a 64-bit little-endian ELF')
shoff, = struct.unpack_from('<Q', d, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)


def shdr(i):
    return struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize)


stroff = shdr(shstrndx)[4]
done = 0
for i in range(shnum):
    name, typ, _, _, off, size = shdr(i)[:6]
    end = d.index(b'\0', stroff + name)
    if d[stroff + name:end] != b'.note.stapsdt':
        continue
    pos = off
    while pos + 12 <= off + size:
        namesz, descsz, _ = struct.unpack_from('<III', d, pos)
        desc = pos + 12 + ((namesz + 3) & ~3)
        pc, base, sem = struct.unpack_from('<QQQ', d, desc)
        M = (1 << 64) - 1
        struct.pack_into("<QQQ", d, desc, (pc - delta) & M, (base - delta) & M, (sem - delta) & M if sem else 0)
        done += 1
        pos = desc + ((descsz + 3) & ~3)
if not done:
    sys.exit('no SDT notes')
open(dst, 'wb').write(d)
