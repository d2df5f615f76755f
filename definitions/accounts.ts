import { collection, field, shape } from '@convapi/dsl';

const state = field.string();
const title = field.string();

/**
 * Accounts: v1 shows state and title at the top level; v2 moves them into a `profile` object. Both
 * versions read and write the same stored account.
 */
export default collection({
  name: 'accounts',
  identifier: { name: 'account_id', type: 'integer' },
  fields: {
    user_name: field.string({ required: true, minLength: 1, filterable: true, searchable: true }),
    e_mail: field.string({ required: true, format: 'email', filterable: true }),
    state,
    title,
  },
  versions: {
    v1: {},
    v2: {
      shape: shape({
        fields: {
          user_name: field.string({ required: true, minLength: 1, filterable: true }),
          e_mail: field.string({ required: true, format: 'email', filterable: true }),
          profile: field.object({ state, title }),
        },
        // No profile at all when neither nested field is set: absent fields are left out at every depth.
        read: ({ profile: _ignored, state, title, ...rest }) =>
          state == null && title == null ? rest : { ...rest, profile: { state, title } },
        write: ({ profile, ...rest }) => {
          // profile: null clears both nested fields; an absent member leaves its field as it is.
          if (profile === null) return { ...rest, state: null, title: null };
          const nested = (profile ?? {}) as { state?: unknown; title?: unknown };
          const stored: Record<string, unknown> = { ...rest };
          if ('state' in nested) stored.state = nested.state;
          if ('title' in nested) stored.title = nested.title;
          return stored;
        },
      }),
    },
  },
});
