// A small RFC 6902 JSON Patch applier (with RFC 6901 JSON Pointers).
// Pure: applyPatch never mutates its input; it works on a deep copy, so a patch
// that fails part-way leaves the caller's document exactly as it was.

export class PatchError extends Error {
  constructor(message, index) {
    super(index === undefined ? message : `op ${index}: ${message}`);
    this.name = 'PatchError';
    this.index = index;
  }
}

export function deepClone(value) {
  if (typeof structuredClone === 'function') return structuredClone(value);
  return JSON.parse(JSON.stringify(value));
}

export function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !deepEqual(a[k], b[k])) return false;
  }
  return true;
}

/** Splits a JSON Pointer into unescaped reference tokens ("" -> []). */
export function parsePointer(pointer) {
  if (typeof pointer !== 'string') throw new PatchError('pointer must be a string');
  if (pointer === '') return [];
  if (pointer[0] !== '/') throw new PatchError(`bad pointer "${pointer}"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => {
      if (/~[^01]|~$/.test(t)) throw new PatchError(`bad escape in pointer "${pointer}"`);
      return t.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

export function escapeToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

function isIndexToken(token) {
  return /^(0|[1-9][0-9]*)$/.test(token);
}

function hasOwn(obj, key) {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Reads the value at pointer; throws PatchError if it does not exist. */
export function getAt(doc, pointer) {
  let cur = doc;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(cur)) {
      if (!isIndexToken(token) || Number(token) >= cur.length) {
        throw new PatchError(`no element "${token}" at "${pointer}"`);
      }
      cur = cur[Number(token)];
    } else if (cur !== null && typeof cur === 'object') {
      if (!hasOwn(cur, token)) throw new PatchError(`no member "${token}" at "${pointer}"`);
      cur = cur[token];
    } else {
      throw new PatchError(`cannot descend into a scalar at "${pointer}"`);
    }
  }
  return cur;
}

// Returns [parent container, last token] for a non-root pointer.
function parentOf(doc, pointer) {
  const tokens = parsePointer(pointer);
  const last = tokens.pop();
  const parentPointer = tokens.map(escapeToken).map((t) => '/' + t).join('');
  const parent = getAt(doc, parentPointer);
  if (parent === null || typeof parent !== 'object') {
    throw new PatchError(`parent of "${pointer}" is not a container`);
  }
  return [parent, last];
}

// Each operation below mutates `doc` (a private copy) and returns the new root.
function opAdd(doc, path, value) {
  if (path === '') return value;
  const [parent, key] = parentOf(doc, path);
  if (Array.isArray(parent)) {
    if (key === '-') {
      parent.push(value);
    } else {
      if (!isIndexToken(key) || Number(key) > parent.length) {
        throw new PatchError(`bad array index "${key}" for add at "${path}"`);
      }
      parent.splice(Number(key), 0, value);
    }
  } else {
    parent[key] = value;
  }
  return doc;
}

function opRemove(doc, path) {
  if (path === '') throw new PatchError('cannot remove the root');
  const [parent, key] = parentOf(doc, path);
  if (Array.isArray(parent)) {
    if (!isIndexToken(key) || Number(key) >= parent.length) {
      throw new PatchError(`no element "${key}" to remove at "${path}"`);
    }
    parent.splice(Number(key), 1);
  } else {
    if (!hasOwn(parent, key)) throw new PatchError(`no member "${key}" to remove at "${path}"`);
    delete parent[key];
  }
  return doc;
}

function opReplace(doc, path, value) {
  if (path === '') return value;
  const [parent, key] = parentOf(doc, path);
  if (Array.isArray(parent)) {
    if (!isIndexToken(key) || Number(key) >= parent.length) {
      throw new PatchError(`no element "${key}" to replace at "${path}"`);
    }
    parent[Number(key)] = value;
  } else {
    if (!hasOwn(parent, key)) throw new PatchError(`no member "${key}" to replace at "${path}"`);
    parent[key] = value;
  }
  return doc;
}

function requireValue(op, i) {
  if (!hasOwn(op, 'value')) throw new PatchError(`"${op.op}" needs a value`, i);
  return op.value;
}

function requireFrom(op, i) {
  if (typeof op.from !== 'string') throw new PatchError(`"${op.op}" needs a from`, i);
  return op.from;
}

/**
 * Applies the RFC 6902 operations `ops` to `doc` and returns the new document.
 * Throws PatchError (and leaves `doc` untouched) if any operation fails.
 */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError('a patch is an array of operations');
  let out = deepClone(doc);
  ops.forEach((op, i) => {
    if (op === null || typeof op !== 'object' || typeof op.path !== 'string') {
      throw new PatchError('operation needs a path', i);
    }
    try {
      switch (op.op) {
        case 'add':
          out = opAdd(out, op.path, deepClone(requireValue(op, i)));
          break;
        case 'remove':
          out = opRemove(out, op.path);
          break;
        case 'replace':
          out = opReplace(out, op.path, deepClone(requireValue(op, i)));
          break;
        case 'move': {
          const from = requireFrom(op, i);
          if (op.path !== from && op.path.startsWith(from + '/')) {
            throw new PatchError('cannot move a value into one of its children');
          }
          const value = getAt(out, from);
          out = opRemove(out, from);
          out = opAdd(out, op.path, value);
          break;
        }
        case 'copy': {
          const value = deepClone(getAt(out, requireFrom(op, i)));
          out = opAdd(out, op.path, value);
          break;
        }
        case 'test': {
          const expected = requireValue(op, i);
          if (!deepEqual(getAt(out, op.path), expected)) {
            throw new PatchError(`test failed at "${op.path}"`);
          }
          break;
        }
        default:
          throw new PatchError(`unknown op "${op.op}"`);
      }
    } catch (e) {
      if (e instanceof PatchError && e.index === undefined) throw new PatchError(e.message, i);
      throw e;
    }
  });
  return out;
}
