/** The Content-Type of every JSON body, requests and responses, errors included (conventions: headers). */
export const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';
