// Leaves the SDK's zod schemas unbuilt until a program first uses one: a rewrite of the bundle's
// SDK chunk (scripts/bundle.mjs), the SDK's code otherwise unchanged.
//
// The SDK builds every schema of the protocol while its chunk loads (182 with SDK 2.4, about 1,000
// zod objects: 20 to 28 ms of CPU), and the first message of a 2025 server builds the 142 of that
// revision (about 750 more); a stdio connect, a tool list and a call use about 40 of them. So each
// `const NameSchema = <call>` of the chunk's top level, and of a function that builds a
// revision's schema set and returns it, becomes a function that builds the schema on its first
// call and returns the same object ever after; every reference to it calls that function. What
// the chunk's code holds and uses is the schema itself, as before, only built later.
//
// A const computed from schemas as the chunk loads (the SDK's tables of the keys its elicitation
// schemas allow) is computed on its first use in the same way.
//
// Some objects list schemas as they are made (the SDK's exports namespace and `specTypeSchemas`
// table while the chunk loads, the object a schema set returns): such a list holds a stand-in for
// each, a Proxy that builds the schema on its first use and forwards everything to it. Only those
// lists hold stand-ins; whatever is built from a schema holds the schema.
//
// The rewrite relies on the shape of the SDK's code and fails the build, naming what it missed,
// when that changes: too few schemas found, no schema set, a list property not named as a
// schema, a schema's name in a place it does not know, or in one that uses it by its identity
// (`===`, a Map's key): a list's stand-in is another object than the schema. A name declared
// again in an inner scope (the schema sets' own copies) is that scope's, and is left alone there.
import { parseAst } from 'rolldown/parseAst';

/** SDK 2.4 has 182: far fewer means the SDK no longer declares its schemas this way. */
const AT_LEAST = 150;
/** A revision's schema set (the 2025 one has 142): a function that builds fewer is another thing. */
const AT_LEAST_IN_SET = 50;
const SCHEMA_NAME = /Schema(\$\d+)?$/;
const BUILD = 'lazySchema$';
const STAND_IN = 'lazySchemaStandIn$';

const HELPERS = `
/** A schema built on the first call of the function returned, which returns it ever after. */
function ${BUILD}(build) {
	let schema;
	let built = false;
	let building = false;
	return () => {
		if (!built) {
			if (building) throw new Error("an SDK schema refers to itself while it is built");
			building = true;
			try {
				schema = build();
				built = true;
			} finally {
				building = false;
			}
		}
		return schema;
	};
}
/** An object that acts as the schema that \`schema()\` builds, and builds it on its first use. */
function ${STAND_IN}(schema) {
	schema.standIn ??= new Proxy({}, {
		get: (_, key) => Reflect.get(schema(), key),
		set: (_, key, value) => Reflect.set(schema(), key, value),
		has: (_, key) => Reflect.has(schema(), key),
		deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
		defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
		ownKeys: () => Reflect.ownKeys(schema()),
		getOwnPropertyDescriptor: (_, key) => {
			const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
			return descriptor === void 0 ? void 0 : { ...descriptor, configurable: true };
		},
		getPrototypeOf: () => Reflect.getPrototypeOf(schema())
	});
	return schema.standIn;
}
`;

/** Methods that find an object by its identity: a stand-in passed to them is not its schema. */
const BY_IDENTITY = new Set([
  'get',
  'has',
  'set',
  'add',
  'delete',
  'includes',
  'indexOf',
  'lastIndexOf',
]);

/** `code` (a chunk holding the SDK's schemas) with its schemas built on first use. */
export function lazySchemas(code, chunkName) {
  const fail = (why) => {
    throw new Error(
      `scripts/lazy-schemas.mjs: chunk ${chunkName}: ${why}. The SDK's code changed shape: update the rewrite to it (or take it out of scripts/bundle.mjs)`,
    );
  };
  for (const name of [BUILD, STAND_IN]) {
    if (code.includes(name)) fail(`it already has a name ${name}`);
  }
  const ast = parseAst(code);
  const exported = new Set();
  for (const statement of ast.body) {
    if (statement.type !== 'ExportNamedDeclaration') continue;
    for (const specifier of statement.specifiers) exported.add(specifier.local.name);
  }
  const inserts = [];
  const top = rewriteScope(ast.body, exported, inserts, fail);
  if (top < AT_LEAST) fail(`${top} top-level schemas found, not at least ${AT_LEAST}`);
  // The SDK's schemas of each protocol revision, built together by a function that returns them.
  const sets = ast.body.filter(isSchemaSet);
  if (sets.length === 0) fail('no function that builds a set of schemas and returns them');
  for (const set of sets) {
    rewriteScope(set.body.body, new Set(), inserts, fail, set.body.body.at(-1).argument);
  }

  // Text inserted at one place: closings before openings; an opening outside-in, a closing
  // inside-out.
  inserts.sort(
    (a, b) =>
      a.at - b.at ||
      Number(b.after) - Number(a.after) ||
      (a.after ? b.depth - a.depth : a.depth - b.depth),
  );
  let out = '';
  let from = 0;
  for (const { at, text } of inserts) {
    out += code.slice(from, at) + text;
    from = at;
  }
  return `${out}${code.slice(from)}\n${HELPERS}`;
}

/**
 * A function of the chunk's top level whose body declares schemas, nothing else, and returns
 * them in an object: `function build() { const ASchema = …; …; return { ASchema, … }; }`.
 */
function isSchemaSet(node) {
  if (node.type !== 'FunctionDeclaration' || node.params.length > 0) return false;
  const statements = node.body.body;
  const last = statements.at(-1);
  if (last?.type !== 'ReturnStatement' || last.argument?.type !== 'ObjectExpression') return false;
  const declared = statements.slice(0, -1);
  return (
    declared.length >= AT_LEAST_IN_SET &&
    declared.every(
      (statement) =>
        statement.type === 'VariableDeclaration' &&
        statement.declarations.every(
          ({ id }) => id.type === 'Identifier' && SCHEMA_NAME.test(id.name),
        ),
    )
  );
}

/**
 * Rewrites the schemas that `statements` (the chunk's top level, or a function's body) declare as
 * `const NameSchema = <call>` (or another name for one of them), and every reference to them
 * that is theirs, into `inserts`. `returned`: the object a schema set returns, whose properties
 * built in place (`NameSchema: <call>`) are built on first use too. Returns how many it found.
 */
function rewriteScope(statements, exported, inserts, fail, returned) {
  /** name → its declarator: the schemas, and the consts computed from them (`computed`). */
  const schemas = new Map();
  const consts = statements.flatMap((statement) =>
    statement.type === 'VariableDeclaration' && statement.kind === 'const'
      ? statement.declarations.filter(
          ({ id }) => id.type === 'Identifier' && !exported.has(id.name),
        )
      : [],
  );
  for (const declarator of consts) {
    const { id, init } = declarator;
    if (!SCHEMA_NAME.test(id.name)) continue;
    if (init?.type === 'CallExpression') schemas.set(id.name, declarator);
    // Another name for a schema declared above: the same schema, when it is built.
    if (init?.type === 'Identifier' && schemas.has(init.name)) schemas.set(id.name, declarator);
  }
  /** Expressions that run later than `statements` do: when their schema is built. */
  const deferred = new Set();

  /**
   * Walks `node`, calling `found` for each reference to a schema. `inFunction`: inside code that
   * runs later than `statements` do (a function, or a deferred expression); `listed`: the value
   * of a property of an object built as `statements` run (directly, or as the body of an arrow
   * there, the way a namespace object gets its values); `shadowed`: schemas' names that an inner
   * scope declares for itself.
   */
  const walk = (node, parent, key, depth, inFunction, listed, shadowed, found) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) {
        walk(child, parent, key, depth, inFunction, listed, shadowed, found);
      }
      return;
    }
    if (typeof node.type !== 'string') return;
    if (node.type === 'Identifier' && schemas.has(node.name)) {
      if (!shadowed.has(node.name) && isReference(parent, key)) {
        found(node, parent, key, depth, listed, inFunction);
      }
      return;
    }
    const own = scopeNames(node).filter((name) => schemas.has(name));
    const inner = own.length === 0 ? shadowed : new Set([...shadowed, ...own]);
    const later = inFunction || /Function/.test(node.type) || deferred.has(node);
    for (const [childKey, child] of Object.entries(node)) {
      if (childKey === 'type' || child === null || typeof child !== 'object') continue;
      const childListed =
        (!inFunction && node.type === 'Property' && childKey === 'value') ||
        (listed && node.type === 'ArrowFunctionExpression' && childKey === 'body');
      walk(child, node, childKey, depth + 1, later, childListed, inner, found);
    }
  };

  // A const computed from schemas as `statements` run (the SDK's tables of the keys its
  // elicitation schemas allow) would build them then: it is computed on its first use, as they are.
  const computed = new Set();
  for (let grew = true; grew; ) {
    grew = false;
    for (const declarator of consts) {
      if (schemas.has(declarator.id.name) || declarator.init === null) continue;
      let reads = false;
      const read = (_node, _parent, _key, _depth, listed, inFunction) => {
        reads ||= !listed && !inFunction;
      };
      walk(declarator.init, declarator, 'init', 0, false, false, new Set(), read);
      if (!reads) continue;
      schemas.set(declarator.id.name, declarator);
      computed.add(declarator.id.name);
      grew = true;
    }
  }

  const insert = (at, text, depth, after) => inserts.push({ at, text, depth, after });
  for (const { init } of schemas.values()) {
    deferred.add(init);
    // Outside every other insert at its places: nothing else starts or ends where it does.
    insert(init.start, `${BUILD}(() => (`, -1, false);
    insert(init.end, '))', -1, true);
  }
  for (const property of returned?.properties ?? []) {
    const { key, value } = property;
    if (property.type !== 'Property' || value.type === 'Identifier') continue;
    if (key.type !== 'Identifier' || !SCHEMA_NAME.test(key.name)) {
      fail(`a schema set returns a property ${key.name ?? key.type}, not named as a schema`);
    }
    deferred.add(value);
    insert(value.start, `${STAND_IN}(${BUILD}(() => (`, -1, false);
    insert(value.end, ')))', -1, true);
  }

  const reference = (node, parent, key, depth, listed) => {
    const name = node.name;
    if (/Specifier|Label|Break|Continue/.test(parent.type)) {
      fail(`${name} appears in a ${parent.type}, which the rewrite does not know`);
    }
    // A list's stand-in for a schema is another object than the schema: code that finds one by
    // its identity would not find the other, silently. The SDK uses its schemas by value only.
    const identity = identityUse(node, parent, key);
    if (identity !== undefined) {
      fail(`${name} is ${identity}, which a stand-in for it in a list would not pass`);
    }
    if (listed && computed.has(name)) {
      fail(`${name}, computed from schemas, is listed where only a schema can stand in`);
    }
    const prefix = parent.type === 'Property' && parent.shorthand ? `${name}: ` : '';
    if (listed) {
      insert(node.start, `${prefix}${STAND_IN}(`, depth, false);
      insert(node.end, ')', depth, true);
    } else {
      if (prefix !== '') insert(node.start, prefix, depth, false);
      insert(node.end, '()', depth, true);
    }
  };

  // Inside a function body, the body's own declarations are this scope's: not shadowing ones.
  walk(statements, null, 'body', 0, false, false, new Set(), reference);
  return schemas.size - computed.size;
}

/** How `parent` uses `node` (at its `key`) by identity, if it does: what to say of it. */
function identityUse(node, parent, key) {
  if (parent.type === 'BinaryExpression' && /^[=!]==?$/.test(parent.operator)) {
    return `compared with ${parent.operator}`;
  }
  if (parent.type === 'SwitchCase' || parent.type === 'SwitchStatement') return 'a switch case';
  const callee = parent.type === 'CallExpression' && key === 'arguments' ? parent.callee : null;
  if (callee?.type !== 'MemberExpression' || callee.computed) return undefined;
  const method = callee.property.name;
  // `Object.is(a, b)` by either argument; a Map's or a list's methods by their first one.
  const byIdentity = method === 'is' || (BY_IDENTITY.has(method) && parent.arguments[0] === node);
  return byIdentity ? `passed to .${method}()` : undefined;
}

/** Whether an identifier at `key` of `parent` is a reference to a variable (not a name). */
function isReference(parent, key) {
  if (parent.type === 'VariableDeclarator' && key === 'id') return false;
  if (parent.type === 'MemberExpression' && key === 'property' && !parent.computed) return false;
  const keyed = ['Property', 'MethodDefinition', 'PropertyDefinition'].includes(parent.type);
  // `{ NameSchema }`: its value is a node of its own, the reference.
  return !(keyed && key === 'key' && !parent.computed);
}

/** The names a scope that `node` opens declares (none if it opens none, or is the chunk's own). */
function scopeNames(node) {
  const names = [];
  const lexical = (statements) => {
    for (const statement of statements) {
      if (statement.type === 'VariableDeclaration' && statement.kind !== 'var') {
        for (const { id } of statement.declarations) bound(id, names);
      }
      if (/Declaration$/.test(statement.type) && statement.id) bound(statement.id, names);
    }
  };
  switch (node.type) {
    case 'FunctionDeclaration':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
      for (const param of node.params) bound(param, names);
      if (node.type === 'FunctionExpression' && node.id) bound(node.id, names);
      vars(node.body, names);
      break;
    case 'ClassExpression':
    case 'ClassDeclaration':
      if (node.id) bound(node.id, names);
      break;
    case 'BlockStatement':
    case 'StaticBlock':
      lexical(node.body);
      break;
    case 'SwitchStatement':
      for (const branch of node.cases) lexical(branch.consequent);
      break;
    case 'ForStatement':
    case 'ForInStatement':
    case 'ForOfStatement': {
      const head = node.type === 'ForStatement' ? node.init : node.left;
      if (head?.type === 'VariableDeclaration' && head.kind !== 'var') lexical([head]);
      break;
    }
    case 'CatchClause':
      if (node.param) bound(node.param, names);
      break;
  }
  return names;
}

/** The names `var` declares in a function's body, its inner functions aside. */
function vars(node, names) {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) vars(child, names);
    return;
  }
  if (/Function/.test(node.type ?? '')) return;
  if (node.type === 'VariableDeclaration' && node.kind === 'var') {
    for (const { id } of node.declarations) bound(id, names);
  }
  for (const [key, child] of Object.entries(node)) {
    if (key !== 'type' && child !== null && typeof child === 'object') vars(child, names);
  }
}

/** The names a binding pattern binds, into `names`. */
function bound(pattern, names) {
  switch (pattern?.type) {
    case 'Identifier':
      names.push(pattern.name);
      break;
    case 'ObjectPattern':
      for (const property of pattern.properties) {
        bound(property.type === 'RestElement' ? property.argument : property.value, names);
      }
      break;
    case 'ArrayPattern':
      for (const element of pattern.elements) bound(element, names);
      break;
    case 'RestElement':
      bound(pattern.argument, names);
      break;
    case 'AssignmentPattern':
      bound(pattern.left, names);
      break;
  }
}
