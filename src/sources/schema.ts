/** Schema building blocks shared by adapters: vendors add and drop fields, so only what we read is declared. */
import { Type } from 'typebox';

export const Nullable = <T extends Parameters<typeof Type.Optional>[0]>(t: T) =>
  Type.Optional(Type.Union([t, Type.Null()]));
export const OptStr = Nullable(Type.String());
export const OptNum = Nullable(Type.Number());
export const OptBool = Nullable(Type.Boolean());
export const Id = Type.Union([Type.String({ minLength: 1 }), Type.Number()]);
