# Hand-edited variants of the emitted dequant_matvec_4bit_v3 (measurement only).
import re, sys, shutil, os
src_dir, out_root = sys.argv[1], sys.argv[2]
cl = open(os.path.join(src_dir, 'opencl/moe_quant_shaders.cl')).read()
start = cl.index('__kernel void dequant_matvec_4bit_v3(')
end = cl.index('__kernel', start + 10)
body = cl[start:end]
def v_bytes(b, form):
    # after each `uint packed(_N) = packed_wK;` add the two byte-lane words
    def decl(m):
        sfx = m.group(1) or ""
        extra = f'\n          uint lo{sfx} = packed{sfx} & 0x0F0F0F0Fu; uint hi{sfx} = (packed{sfx} >> 4) & 0x0F0F0F0Fu;'
        if form == 'uchar4':
            extra += f'\n          float4 flo{sfx} = convert_float4(as_uchar4(lo{sfx})); float4 fhi{sfx} = convert_float4(as_uchar4(hi{sfx}));'
        return m.group(0) + extra
    b = re.sub(r'uint packed(_\d)? = packed_w\d;', decl, b)
    comp = 'xyzw'
    def nib(m):
        sfx = m.group(1) or ''
        k = int(m.group(2)) // 4
        half, j = ('lo', k // 2) if k % 2 == 0 else ('hi', k // 2)
        if form == 'uchar4':
            return f'f{half}{sfx}.{comp[j]}'
        return f'(float)(({half}{sfx} >> {8*j}) & 255u)'
    return re.sub(r'\(float\)\(\(packed(_\d)? >> (\d+)\) & 15u\)', nib, b)
def v_reassoc(b):
    # fast-math form: acc += scale * sum(n_i * x_i) + bias * sum(x_i), per word
    def blk(m):
        sfx = m.group(1) or ''
        xb = f'x_base{sfx}'
        lines = [f'float xs{sfx}_{i} = x_shared[{xb} + {i}u];' for i in range(8)]
        dot = ' + '.join(f'(float)((packed{sfx} >> {4*i}) & 15u) * xs{sfx}_{i}' for i in range(8))
        tot = ' + '.join(f'xs{sfx}_{i}' for i in range(8))
        return (m.group(0).split('float sx0')[0] + '\n          '.join(lines) +
                f'\n          acc += scale{sfx} * ({dot}) + bias{sfx} * ({tot});\n')
    return re.sub(r'uint x_base(_\d)? = col(?:_\d)? \* 8u;\n(?:\s*float [sb]x\d(?:_\d)? = .*\n)+(?:\s*acc \+= fma.*\n)+', blk, b)
variants = {'bytes': v_bytes(body, 'shift'), 'uchar4': v_bytes(body, 'uchar4'), 'reassoc': v_reassoc(body)}
for name, b in variants.items():
    d = os.path.join(out_root, 'ct-' + name)
    shutil.rmtree(d, ignore_errors=True); shutil.copytree(src_dir, d)
    open(os.path.join(d, 'opencl/moe_quant_shaders.cl'), 'w').write(cl[:start] + b + cl[end:])
    assert b != body, name
print('ok')
