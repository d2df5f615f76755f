import { answerWritten, requestBody, requestHeader, setJsonBody } from '../http/index.ts';
import { project, resultFields, stripNulls } from '../representation/index.ts';
import { setVersionBody, VERSIONED_WRITE_STATE } from '../responses/index.ts';
import { preconditionFailed } from '../errors/index.ts';
import {
  alwaysPresentMode,
  checkIfMatch,
  checkSettingWrite,
  clearedFields,
  declaredDefaults,
  fromStored,
  parseWriteInput,
  toStored,
  type SettingModel,
} from '../resources/index.ts';
import { refusingQuery, type RouteHandler } from '../routing/index.ts';
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
 * GET, PUT and PATCH /settings/{version}/{name}: the caller's own value of a setting. Before the
 * caller's first write, GET answers the fields' declared defaults. PUT validates the whole value (400
 * naming the field), PATCH the fields it sends (see alwaysPresentMode); both answer the value as
 * stored (canonical forms applied), tagged with its version as a GET of it would be. With If-Match,
 * a write is made only on the version the tag names (defaults before the first write): 412 when the
 * value is another, or becomes another before it is written (another instance's write). Without it,
 * two PATCHes of one caller at once: the later write wins whole.
 */
export function settingHandlers(context: ApiContext, model: SettingModel, versionName: string) {
  const version = model.versions[versionName];
  if (version === undefined) throw new Error(`setting ${model.name} has no version ${versionName}`);
  const names = version.fields.map((field) => field.name);
  const store = () => context.services.settings;
  const render = (stored: Record<string, unknown>, fields: readonly string[] | undefined) =>
    stripNulls(project(fromStored(version, stored), fields));

  const defaults = declaredDefaults(model.fields);

  const read: RouteHandler = (ctx) => {
    const fields = resultFields(ctx, names);
    return andThen(store().read(settingPrincipal(authOf(ctx)), model.name), (stored) => {
      // Fewer fields than the whole: the version's tag is made from the whole (responses/version-tag.ts).
      if (fields !== undefined) setVersionBody(ctx, render(stored ?? defaults, undefined));
      setJsonBody(ctx, render(stored ?? defaults, fields));
    });
  };
  const write =
    (method: 'replace' | 'update'): RouteHandler =>
    (ctx) => {
      const fields = resultFields(ctx, names);
      const caller = authOf(ctx);
      const principal = settingPrincipal(caller);
      // A PUT reads the value it replaces only for a check, which is told it, or for If-Match.
      const ruled = model.rules?.[method] !== undefined;
      const conditional = requestHeader(ctx, 'if-match') !== '';
      const current = method === 'update' || ruled || conditional ? store().read(principal, model.name) : undefined;
      return andThen(current, (found) => {
        // The tag a GET gives: the whole value, or the defaults before the first write.
        if (conditional) checkIfMatch(ctx, render(found ?? defaults, undefined));
        const mode = alwaysPresentMode(method, found !== undefined);
        const input = parseWriteInput(requestBody(ctx), version, { mode, readOnly: {}, resource: model.name });
        const values = toStored(version, input);
        const stored = stripNulls(mode === 'update' ? { ...found, ...values } : values);
        if (ruled)
          checkSettingWrite(
            model,
            {
              operation: method,
              version: version.name,
              input,
              // A whole value (PUT, or a first PATCH) clears what it leaves out: the check sees that.
              stored: mode === 'update' ? values : { ...clearedFields(model), ...values },
              current: found,
              key: undefined,
            },
            caller,
          );
        // With If-Match, written only on the value the tag was checked against.
        const expected = conditional ? (found ?? null) : undefined;
        return andThen(store().write(principal, model.name, stored, expected), (written) => {
          if (!written)
            throw preconditionFailed(
              `${model.name} has changed since the If-Match tag was read; GET it again and retry`,
            );
          ctx.state[VERSIONED_WRITE_STATE] = true;
          answerWritten(ctx, () => {
            // Tagged as a read is: from the whole value, whatever X-Result-Fields presents (a 204 has no tag).
            if (fields !== undefined) setVersionBody(ctx, render(stored, undefined));
            return render(stored, fields);
          });
        });
      });
    };
  // A setting's operations take no query parameters.
  const served = (handler: RouteHandler) =>
    withDeprecation(refusingQuery(handler), version.deprecated, version.name, context.baseUrl);
  return { read: served(read), replace: served(write('replace')), update: served(write('update')) };
}
