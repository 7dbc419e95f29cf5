// The validator package ships JavaScript only; this is the one function samlify needs from it.
declare module '@authenio/samlify-xmllint-wasm' {
  export function validate(xml: string): Promise<true>;
}
