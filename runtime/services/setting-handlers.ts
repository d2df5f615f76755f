import { answerWritten, requestBody, setJsonBody } from '../http/index.ts';
import { project, resultFields, stripNulls } from '../representation/index.ts';
import { fromStored, parseWriteInput, toStored, type SettingModel } from '../resources/index.ts';
import type { RouteHandler } from '../routing/index.ts';
import type { ApiContext } from './api-definition.ts';
import { authOf } from '../auth/index.ts';
import { withDeprecation } from '../versions/index.ts';
import { andThen } from '../storage/index.ts';

/** The principal a setting belongs to: the user when the token acts for one, otherwise the client. */
export function settingPrincipal(caller: { client: string; user?: string } | undefined): string {
  if (caller === undefined) return 'anonymous';
  return caller.user === undefined ? `client:${caller.client}` : `user:${caller.user}`;
}

/**
 * GET and PUT /settings/{version}/{name}: the caller's own value of a setting. PUT validates the
 * whole value (400 naming the field) and answers it as stored (canonical forms applied).
 */
export function settingHandlers(context: ApiContext, model: SettingModel, versionName: string) {
  const version = model.versions[versionName];
  if (version === undefined) throw new Error(`setting ${model.name} has no version ${versionName}`);
  const names = version.fields.map((field) => field.name);
  const store = () => context.services.settings;
  const render = (stored: Record<string, unknown>, fields: readonly string[] | undefined) =>
    stripNulls(project(fromStored(version, stored), fields));

  const read: RouteHandler = (ctx) => {
    const fields = resultFields(ctx, names);
    return andThen(store().read(settingPrincipal(authOf(ctx)), model.name), (stored) => setJsonBody(ctx, render(stored ?? {}, fields)));
  };
  const replace: RouteHandler = (ctx) => {
    const fields = resultFields(ctx, names);
    const values = parseWriteInput(requestBody(ctx), version, { mode: 'replace', readOnly: {}, resource: model.name });
    const stored = toStored(version, values);
    return andThen(store().write(settingPrincipal(authOf(ctx)), model.name, stripNulls(stored)), () => answerWritten(ctx, () => render(stored, fields)));
  };
  return {
    read: withDeprecation(read, version.deprecated, version.name, context.baseUrl),
    replace: withDeprecation(replace, version.deprecated, version.name, context.baseUrl),
  };
}
