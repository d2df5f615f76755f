/**
 * The media type of every JSON body the documents declare, requests and answers alike: the
 * Content-Type the conventions require and the server sends, exactly. A client that compares the
 * header with the document (Dredd does, character for character) finds what it reads; generators
 * still see JSON (a `json` subtype with a parameter).
 */
export const JSON_MEDIA_TYPE = 'application/json;charset=UTF-8';
