// A JSON scalar for free-form values (multilingual names, attributes, GeoJSON).
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

function literal(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING: case Kind.BOOLEAN: return node.value;
    case Kind.INT: case Kind.FLOAT: return Number(node.value);
    case Kind.LIST: return node.values.map(literal);
    case Kind.OBJECT: return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value)]));
    default: return null;
  }
}

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literal,
});
