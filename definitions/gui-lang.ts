import { field, setting } from '@convapi/dsl';

/** The interface language of the caller: PUT /settings/{v}/gui/lang {"lang": "fr-FR"}. */
export default setting({
  name: 'gui/lang',
  fields: { lang: field.languageTag({ required: true, description: 'BCP 47 language tag, stored in canonical form' }) },
  versions: { v1: {}, v2: {} },
});
