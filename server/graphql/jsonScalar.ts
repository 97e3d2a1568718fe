// A JSON scalar for free-form values (multilingual names, attributes, GeoJSON). Values pass as
// they are: how deep they nest is checked with the other argument rules by `validated()`, after
// the resolver has checked the caller's permission. An inline literal is therefore read without
// recursion, whatever its depth.
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

type Container = unknown[] | Record<string, unknown>;

function literal(root: ValueNode): unknown {
  const unfilled: [ValueNode, Container][] = [];
  const shallow = (node: ValueNode): unknown => {
    switch (node.kind) {
      case Kind.STRING: case Kind.BOOLEAN: return node.value;
      case Kind.INT: case Kind.FLOAT: return Number(node.value);
      case Kind.LIST: case Kind.OBJECT: {
        const container: Container = node.kind === Kind.LIST ? [] : {};
        unfilled.push([node, container]);
        return container;
      }
      default: return null;
    }
  };
  const value = shallow(root);
  while (unfilled.length) {
    const [node, container] = unfilled.pop()!;
    if (node.kind === Kind.LIST) {
      for (const item of node.values) (container as unknown[]).push(shallow(item));
    } else if (node.kind === Kind.OBJECT) {
      // defined, not assigned: a field named __proto__ stays a field
      for (const field of node.fields) Object.defineProperty(container, field.name.value, { value: shallow(field.value), enumerable: true, writable: true, configurable: true });
    }
  }
  return value;
}

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literal,
});
